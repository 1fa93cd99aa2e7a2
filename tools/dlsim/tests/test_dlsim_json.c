/*
 * dlsim's JSON reader: the rt-app dialect (comments, trailing commas,
 * duplicate keys in order), positions, every error with its line:column,
 * and a random-input robustness loop that must never crash.
 */
#include <stdlib.h>
#include <string.h>

#include "dls_test.h"
#include "json.h"

static int parse(struct json_doc *d, const char *text)
{
	return json_parse(d, "t.json", text, strlen(text));
}

static void test_dialect(void)
{
	struct json_doc d;
	const char *text =
		"# rt-app style\n"
		"{\n"
		"  // line comment\n"
		"  \"phase\": { \"run\": 10, \"sleep\": 5, \"run\": 20, /* block */ },\n"
		"  \"list\": [1, 2.5, -3e2, true, false, null, \"s\\u00e9\\n\",],\n"
		"}\n";

	CU_ASSERT_EQUAL_FATAL(parse(&d, text), 0);
	const struct json_value *r = d.root;
	CU_ASSERT_EQUAL(r->type, JSON_OBJECT);
	CU_ASSERT_EQUAL(r->len, 2);
	const struct json_value *ph = r->members[0].value;
	CU_ASSERT_EQUAL_FATAL(ph->len, 3);
	CU_ASSERT_STRING_EQUAL(ph->members[0].key, "run");
	CU_ASSERT_STRING_EQUAL(ph->members[1].key, "sleep");
	CU_ASSERT_STRING_EQUAL(ph->members[2].key, "run");
	CU_ASSERT_EQUAL(ph->members[0].value->integer, 10);
	CU_ASSERT_EQUAL(ph->members[2].value->integer, 20);
	CU_ASSERT_EQUAL(ph->members[2].line, 4);
	CU_ASSERT_EQUAL(ph->members[2].col, 37);
	const struct json_value *l = r->members[1].value;
	CU_ASSERT_EQUAL_FATAL(l->len, 7);
	CU_ASSERT_TRUE(l->items[0]->is_integer);
	CU_ASSERT_FALSE(l->items[1]->is_integer);
	CU_ASSERT_DOUBLE_EQUAL(l->items[2]->number, -300.0, 1e-9);
	CU_ASSERT_EQUAL(l->items[3]->type, JSON_BOOL);
	CU_ASSERT_TRUE(l->items[3]->boolean);
	CU_ASSERT_EQUAL(l->items[5]->type, JSON_NULL);
	CU_ASSERT_STRING_EQUAL(l->items[6]->string, "s\xc3\xa9\n");
	json_free(&d);
}

static const struct {
	const char *text;
	const char *error;
} errors[] = {
	{ "{\"a\": 1,\n \"b\" 2}", "t.json:2:6: expected ':' after key \"b\"" },
	{ "{\"a\": [1, 2}", "t.json:1:12: expected ',' or ']' in array" },
	{ "{\"a\": 1 \"b\": 2}", "t.json:1:9: expected ',' or '}' in object" },
	{ "{\"a\": tru}", "t.json:1:7: expected a value" },
	{ "{\"a\": \"x}", "t.json:1:7: unterminated string" },
	{ "{\"a\": 1", "t.json:1:8: unterminated object (expected '}')" },
	{ "{a: 1}", "t.json:1:2: expected a string key or '}'" },
	{ "{} x", "t.json:1:4: unexpected text after the document" },
	{ "/* never closed", "t.json:1:1: unterminated comment" },
	{ "{\"a\": 1.}", "t.json:1:7: expected digits after '.'" },
	{ "{\"a\": \"\\q\"}", "t.json:1:8: unknown escape '\\q'" },
	{ "", "t.json:1:1: unexpected end of input (expected a value)" },
	{ "{\"a\": 1e999}", "t.json:1:7: number out of range (expected a magnitude below 1.8e308)" },
	{ "[\"\xff\"]", "t.json:1:3: invalid UTF-8 in string (byte 0xff)" },
	{ "[\"ok\xc0\xaf\"]", "t.json:1:5: invalid UTF-8 in string (byte 0xc0)" },  /* overlong '/' */
	{ "[\"\xed\xa0\x80\"]", "t.json:1:3: invalid UTF-8 in string (byte 0xed)" }, /* U+D800 */
	{ "[\"\xf4\x90\x80\x80\"]", "t.json:1:3: invalid UTF-8 in string (byte 0xf4)" }, /* > U+10FFFF */
	{ "[\"\xe2\x82\"]", "t.json:1:3: invalid UTF-8 in string (byte 0xe2)" },   /* truncated */
	{ "[\"x\\ud800\"]", "t.json:1:4: lone high surrogate in \\u escape (expected a "
	  "following \\uDC00-\\uDFFF)" },
	{ "[\"\\udc00\"]", "t.json:1:3: lone low surrogate in \\u escape" },
	/* columns count characters: the two-byte e-acute is one column */
	{ "[\"\xc3\xa9\", x]", "t.json:1:7: expected a value" },
};

static void test_errors(void)
{
	for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); i++) {
		struct json_doc d;

		CU_ASSERT_EQUAL(parse(&d, errors[i].text), -1);
		if (strcmp(d.error, errors[i].error))
			fprintf(stderr, "input %zu: got '%s'\n want '%s'\n", i, d.error,
				errors[i].error);
		CU_ASSERT_STRING_EQUAL(d.error, errors[i].error);
		json_free(&d);
	}
}

static void test_depth_bound(void)
{
	char buf[2 * (JSON_MAX_DEPTH + 2) + 1];
	struct json_doc d;
	size_t n = 0;

	for (int i = 0; i < JSON_MAX_DEPTH + 1; i++)
		buf[n++] = '[';
	for (int i = 0; i < JSON_MAX_DEPTH + 1; i++)
		buf[n++] = ']';
	buf[n] = 0;
	CU_ASSERT_EQUAL(parse(&d, buf), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(d.error, "nesting deeper than"));
	json_free(&d);
	/* exactly the limit parses */
	memmove(buf, buf + 1, n - 2);
	buf[n - 2] = 0;
	CU_ASSERT_EQUAL(parse(&d, buf), 0);
	json_free(&d);
}

/* Edges of the input itself: NUL bytes, a byte-order mark, integers at the
 * int64_t limits, surrogate pairs, a document cut short anywhere. */
static void test_input_edges(void)
{
	static const char with_nul[] = "[\"a\0b\"]";
	static const char nul_after[] = "[1]\0";
	struct json_doc d;
	const char *full = "{\"a\": [1, {\"b\": \"c\"}], /* x */ \"d\": -2.5e1,}";

	CU_ASSERT_EQUAL(json_parse(&d, "t.json", with_nul, sizeof(with_nul) - 1), -1);
	CU_ASSERT_STRING_EQUAL(d.error, "t.json:1:4: control character in string (expected an escape)");
	json_free(&d);
	CU_ASSERT_EQUAL(json_parse(&d, "t.json", nul_after, sizeof(nul_after) - 1), -1);
	CU_ASSERT_STRING_EQUAL(d.error, "t.json:1:4: unexpected text after the document");
	json_free(&d);

	CU_ASSERT_EQUAL_FATAL(parse(&d, "\xef\xbb\xbf[9223372036854775807, -9223372036854775808, "
				 "9223372036854775808, \"\\ud83d\\ude00\"]"), 0);
	CU_ASSERT_EQUAL_FATAL(d.root->len, 4);
	CU_ASSERT_TRUE(d.root->items[0]->is_integer);
	DLS_ASSERT_EQ_S64(d.root->items[0]->integer, INT64_MAX);
	CU_ASSERT_TRUE(d.root->items[1]->is_integer);
	DLS_ASSERT_EQ_S64(d.root->items[1]->integer, INT64_MIN);
	CU_ASSERT_FALSE(d.root->items[2]->is_integer);   /* 2^63 does not fit */
	CU_ASSERT_DOUBLE_EQUAL(d.root->items[2]->number, 9223372036854775808.0, 1.0);
	CU_ASSERT_STRING_EQUAL(d.root->items[3]->string, "\xf0\x9f\x98\x80"); /* U+1F600 */
	CU_ASSERT_EQUAL(d.root->line, 1);
	CU_ASSERT_EQUAL(d.root->col, 1);  /* the mark takes no column */
	json_free(&d);

	/* Every proper prefix of a valid document is an error, never a crash. */
	for (size_t n = 0; n < strlen(full); n++) {
		CU_ASSERT_EQUAL(json_parse(&d, "t.json", full, n), -1);
		CU_ASSERT_FATAL(!strncmp(d.error, "t.json:1:", 9));
		json_free(&d);
	}
	CU_ASSERT_EQUAL(json_parse(&d, "t.json", full, strlen(full)), 0);
	json_free(&d);
}

/* rt-app's workgen leaves some keys without a value ("suspend",): the
 * reader keeps them as bare members with a null at the key, in file order. */
static void test_bare_keys(void)
{
	struct json_doc d;

	CU_ASSERT_EQUAL_FATAL(parse(&d, "{\"run\": 5, \"suspend\",\n \"yield\" }"), 0);
	CU_ASSERT_EQUAL_FATAL(d.root->len, 3);
	CU_ASSERT_FALSE(d.root->members[0].bare);
	CU_ASSERT_TRUE(d.root->members[1].bare);
	CU_ASSERT_STRING_EQUAL(d.root->members[1].key, "suspend");
	CU_ASSERT_EQUAL(d.root->members[1].value->type, JSON_NULL);
	CU_ASSERT_EQUAL(d.root->members[1].value->line, 1);
	CU_ASSERT_EQUAL(d.root->members[1].value->col, 12);
	CU_ASSERT_TRUE(d.root->members[2].bare);
	CU_ASSERT_EQUAL(d.root->members[2].line, 2);
	CU_ASSERT_EQUAL(d.root->members[2].col, 2);
	json_free(&d);
	/* Only ',' or '}' make a key bare; anything else still wants ':'. */
	CU_ASSERT_EQUAL(parse(&d, "{\"a\" ]"), -1);
	CU_ASSERT_STRING_EQUAL(d.error, "t.json:1:6: expected ':' after key \"a\"");
	json_free(&d);
}

/* Integers that do not fit in 64 bits are marked so (the reader says "out
 * of range", not "a fraction"); exponents and fractions are not integers. */
static void test_int_overflow(void)
{
	struct json_doc d;

	CU_ASSERT_EQUAL_FATAL(parse(&d, "[99999999999999999999, -9223372036854775809, 1e3, "
				    "1000.0, 7]"), 0);
	CU_ASSERT_TRUE(d.root->items[0]->int_overflow);
	CU_ASSERT_TRUE(d.root->items[1]->int_overflow);
	for (int i = 2; i < 4; i++) {
		CU_ASSERT_FALSE(d.root->items[i]->int_overflow);
		CU_ASSERT_FALSE(d.root->items[i]->is_integer);
		CU_ASSERT_DOUBLE_EQUAL(d.root->items[i]->number, 1000.0, 0);
	}
	CU_ASSERT_TRUE(d.root->items[4]->is_integer);
	CU_ASSERT_FALSE(d.root->items[4]->int_overflow);
	json_free(&d);
}

/* Random bytes and mutated valid documents: never crash, always either a
 * document or an error with a position. */
static void test_random_robust(void)
{
	static const char alphabet[] = "{}[]\":,0123456789.eE+-truefalsn/*#\\ \n\tabc\x00\xff";
	const char *seed_doc = "{\"tasks\": {\"a\": {\"run\": 10, \"timer\": {\"ref\": \"u\", \"period\": 5}}}}";
	struct dls_test_rng r;
	uint64_t iters = dls_test_scaled(200000), ok = 0, bad = 0;
	char buf[256];

	dls_test_rng_seed(&r, dls_test_seed("json robustness", 0x15011ULL));
	for (uint64_t i = 0; i < iters; i++) {
		struct json_doc d;
		size_t n;

		if (i & 1) {
			n = dls_test_rng_below(&r, sizeof(buf));
			for (size_t k = 0; k < n; k++)
				buf[k] = alphabet[dls_test_rng_below(&r, sizeof(alphabet) - 1)];
		} else {
			n = strlen(seed_doc);
			memcpy(buf, seed_doc, n);
			for (int m = 0; m < 3; m++)
				buf[dls_test_rng_below(&r, n)] =
					alphabet[dls_test_rng_below(&r, sizeof(alphabet) - 1)];
			n = dls_test_rng_below(&r, n + 1);
		}
		if (json_parse(&d, "r.json", buf, n) == 0) {
			CU_ASSERT_PTR_NOT_NULL_FATAL(d.root);
			ok++;
		} else {
			CU_ASSERT_FATAL(!strncmp(d.error, "r.json:", 7));
			bad++;
		}
		json_free(&d);
	}
	printf("  %llu parsed, %llu rejected\n", (unsigned long long)ok,
	       (unsigned long long)bad);
	CU_ASSERT_TRUE(ok > 0 && bad > 0);
}

static const struct dls_test_case cases[] = {
	{ "rt-app dialect", test_dialect },
	{ "errors with positions", test_errors },
	{ "depth bound", test_depth_bound },
	{ "bare keys (workgen)", test_bare_keys },
	{ "integers beyond 64 bits", test_int_overflow },
	{ "NUL, BOM, int64 limits, surrogates, truncation", test_input_edges },
	{ "random input never crashes", test_random_robust },
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "dlsim json", cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	return dls_test_main(argc, argv, suites);
}
