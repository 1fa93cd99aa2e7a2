/*
 * A JSON reader for workload files as people write them for rt-app:
 * comments (//, / * * /, #), trailing commas, and object members kept in
 * file order, duplicate keys included. Every value knows its line:column.
 */
#ifndef DLSIM_JSON_H
#define DLSIM_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json_value;

struct json_member {
	const char *key;
	int line, col;
	struct json_value *value; /* a null at the key when bare */
	bool bare;            /* a key with no ':' and value, as rt-app's
				 workgen leaves "suspend" for it to fill in */
};

struct json_value {
	enum json_type type;
	int line, col;
	bool boolean;
	double number;
	bool is_integer;      /* written without fraction or exponent, fits int64_t */
	bool int_overflow;    /* written as an integer, too large for int64_t */
	int64_t integer;      /* valid when is_integer */
	const char *string;   /* NUL-terminated (may contain no NUL) */
	size_t len;           /* array items or object members */
	struct json_value **items;
	struct json_member *members;
};

struct json_doc {
	struct json_block *blocks;
	struct json_value *root;
	char error[256];      /* "file:line:col: message" on failure */
};

#define JSON_MAX_DEPTH 64

/* Parse text[0..len); 0 on success, -1 with doc->error set. */
int json_parse(struct json_doc *doc, const char *fname, const char *text, size_t len);
void json_free(struct json_doc *doc);
const char *json_type_name(enum json_type t);
/* The shortest decimal that reads back as @v: 0.1, not 0.10000000000000001. */
void json_number_text(char *buf, size_t len, double v);

#endif
