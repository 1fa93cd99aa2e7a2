#include "json.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct json_block {
	struct json_block *next;
	size_t used, size;
	max_align_t data[];
};

struct parser {
	struct json_doc *doc;
	const char *fname;
	const char *s, *end;
	int line, col;
	int depth;
	bool failed;
};

static void *arena_alloc(struct parser *p, size_t n)
{
	struct json_block *b = p->doc->blocks;

	n = (n + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
	if (!b || b->size - b->used < n) {
		size_t size = n > 65536 ? n : 65536;

		b = malloc(sizeof(*b) + size);
		if (!b)
			return NULL;
		b->size = size;
		b->used = 0;
		b->next = p->doc->blocks;
		p->doc->blocks = b;
	}
	b->used += n;
	return (char *)b->data + b->used - n;
}

static void fail(struct parser *p, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (p->failed)
		return;
	p->failed = true;
	n = snprintf(p->doc->error, sizeof(p->doc->error), "%s:%d:%d: ", p->fname,
		     p->line, p->col);
	va_start(ap, fmt);
	if (n > 0 && (size_t)n < sizeof(p->doc->error))
		vsnprintf(p->doc->error + n, sizeof(p->doc->error) - (size_t)n, fmt, ap);
	va_end(ap);
}

/* Columns count characters, not bytes: UTF-8 continuation bytes do not
 * move the column, so positions match what an editor shows. */
static void advance(struct parser *p)
{
	if (*p->s == '\n') {
		p->line++;
		p->col = 1;
	} else if (((unsigned char)*p->s & 0xc0) != 0x80) {
		p->col++;
	}
	p->s++;
}

static void skip_space(struct parser *p)
{
	while (p->s < p->end) {
		char c = *p->s;

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			advance(p);
		} else if (c == '#' || (c == '/' && p->s + 1 < p->end && p->s[1] == '/')) {
			while (p->s < p->end && *p->s != '\n')
				advance(p);
		} else if (c == '/' && p->s + 1 < p->end && p->s[1] == '*') {
			int line = p->line, col = p->col;

			advance(p);
			advance(p);
			while (p->s < p->end && !(*p->s == '*' && p->s + 1 < p->end && p->s[1] == '/'))
				advance(p);
			if (p->s >= p->end) {
				p->line = line;
				p->col = col;
				fail(p, "unterminated comment");
				return;
			}
			advance(p);
			advance(p);
		} else {
			return;
		}
	}
}

static struct json_value *new_value(struct parser *p, enum json_type t)
{
	struct json_value *v = arena_alloc(p, sizeof(*v));

	if (!v) {
		fail(p, "out of memory");
		return NULL;
	}
	memset(v, 0, sizeof(*v));
	v->type = t;
	v->line = p->line;
	v->col = p->col;
	return v;
}

static void put_utf8(char *out, size_t *n, unsigned long cp)
{
	if (cp < 0x80) {
		out[(*n)++] = (char)cp;
	} else if (cp < 0x800) {
		out[(*n)++] = (char)(0xc0 | (cp >> 6));
		out[(*n)++] = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		out[(*n)++] = (char)(0xe0 | (cp >> 12));
		out[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[(*n)++] = (char)(0x80 | (cp & 0x3f));
	} else {
		out[(*n)++] = (char)(0xf0 | (cp >> 18));
		out[(*n)++] = (char)(0x80 | ((cp >> 12) & 0x3f));
		out[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[(*n)++] = (char)(0x80 | (cp & 0x3f));
	}
}

static int hex4(const char *s, unsigned long *out)
{
	unsigned long v = 0;

	for (int i = 0; i < 4; i++) {
		char c = s[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned long)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned long)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned long)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

/* Length of the well-formed UTF-8 sequence at s[0..avail), or 0: no
 * overlong forms, no surrogates, nothing above U+10FFFF (RFC 3629). */
static size_t utf8_len(const unsigned char *s, size_t avail)
{
	unsigned long cp, min;
	size_t n;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2; cp = s[0] & 0x1f; min = 0x80;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3; cp = s[0] & 0x0f; min = 0x800;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4; cp = s[0] & 0x07; min = 0x10000;
	} else {
		return 0;
	}
	if (avail < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/*
 * A \uXXXX escape at p->s ('u'), a surrogate pair taken whole, appended to
 * out[*n] as UTF-8; p->s is left on its last hex digit. False (p->failed
 * set, at the escape's backslash) when it is malformed.
 */
static bool parse_u_escape(struct parser *p, char *out, size_t *n, int esc_line,
			   int esc_col)
{
	unsigned long cp, lo;

	if (p->end - p->s < 5 || hex4(p->s + 1, &cp)) {
		fail(p, "bad \\u escape (expected 4 hex digits)");
		return false;
	}
	if (cp == 0) {
		fail(p, "\\u0000 is not allowed in strings");
		return false;
	}
	for (int i = 0; i < 4; i++)
		advance(p);
	if (cp >= 0xdc00 && cp <= 0xdfff) {
		p->line = esc_line;
		p->col = esc_col;
		fail(p, "lone low surrogate in \\u escape");
		return false;
	}
	if (cp >= 0xd800 && cp <= 0xdbff) {
		/* A high surrogate must pair with a following \uDC00-\uDFFF. */
		if (p->end - p->s < 7 || p->s[1] != '\\' || p->s[2] != 'u' ||
		    hex4(p->s + 3, &lo) || lo < 0xdc00 || lo > 0xdfff) {
			p->line = esc_line;
			p->col = esc_col;
			fail(p, "lone high surrogate in \\u escape (expected a "
			     "following \\uDC00-\\uDFFF)");
			return false;
		}
		for (int i = 0; i < 6; i++)
			advance(p);
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	}
	put_utf8(out, n, cp);
	return true;
}

/* Parse a string at p->s (which is '"'); returns arena copy. */
static const char *parse_string(struct parser *p, size_t *lenp)
{
	const char *start = p->s + 1, *q;
	size_t cap = 0, n = 0;
	int esc_line = 0, esc_col = 0;
	char *out;

	/* Upper bound of the decoded length: the raw length. */
	for (q = start; q < p->end && *q != '"'; q++) {
		if (*q == '\\' && q + 1 < p->end)
			q++;
		cap++;
	}
	if (q >= p->end) {
		fail(p, "unterminated string");
		return NULL;
	}
	out = arena_alloc(p, cap * 2 + 1);
	if (!out) {
		fail(p, "out of memory");
		return NULL;
	}
	advance(p);
	while (*p->s != '"') {
		unsigned char c = (unsigned char)*p->s;

		if (c < 0x20) {
			fail(p, "control character in string (expected an escape)");
			return NULL;
		}
		if (c != '\\') {
			size_t u = utf8_len((const unsigned char *)p->s, (size_t)(p->end - p->s));

			if (!u) {
				fail(p, "invalid UTF-8 in string (byte 0x%02x)", c);
				return NULL;
			}
			while (u--) {
				out[n++] = *p->s;
				advance(p);
			}
			continue;
		}
		esc_line = p->line;
		esc_col = p->col;
		advance(p);
		switch (*p->s) {
		case '"': out[n++] = '"'; break;
		case '\\': out[n++] = '\\'; break;
		case '/': out[n++] = '/'; break;
		case 'b': out[n++] = '\b'; break;
		case 'f': out[n++] = '\f'; break;
		case 'n': out[n++] = '\n'; break;
		case 'r': out[n++] = '\r'; break;
		case 't': out[n++] = '\t'; break;
		case 'u':
			if (!parse_u_escape(p, out, &n, esc_line, esc_col))
				return NULL;
			break;
		default:
			p->line = esc_line;
			p->col = esc_col;
			fail(p, "unknown escape '\\%c'", p->s[0]);
			return NULL;
		}
		advance(p);
	}
	advance(p);
	out[n] = 0;
	*lenp = n;
	return out;
}

static struct json_value *parse_value(struct parser *p);

static bool is_word(struct parser *p, const char *w)
{
	size_t n = strlen(w);

	return (size_t)(p->end - p->s) >= n && !memcmp(p->s, w, n);
}

static struct json_value *parse_number(struct parser *p)
{
	struct json_value *v = new_value(p, JSON_NUMBER);
	const char *q = p->s;
	char buf[64];
	size_t n;
	bool integer = true;

	if (!v)
		return NULL;
	if (q < p->end && *q == '-')
		q++;
	if (q >= p->end || *q < '0' || *q > '9') {
		fail(p, "expected a value");
		return NULL;
	}
	while (q < p->end && *q >= '0' && *q <= '9')
		q++;
	if (q < p->end && *q == '.') {
		integer = false;
		q++;
		if (q >= p->end || *q < '0' || *q > '9') {
			fail(p, "expected digits after '.'");
			return NULL;
		}
		while (q < p->end && *q >= '0' && *q <= '9')
			q++;
	}
	if (q < p->end && (*q == 'e' || *q == 'E')) {
		integer = false;
		q++;
		if (q < p->end && (*q == '+' || *q == '-'))
			q++;
		if (q >= p->end || *q < '0' || *q > '9') {
			fail(p, "expected digits in exponent");
			return NULL;
		}
		while (q < p->end && *q >= '0' && *q <= '9')
			q++;
	}
	n = (size_t)(q - p->s);
	if (n >= sizeof(buf)) {
		fail(p, "number too long");
		return NULL;
	}
	memcpy(buf, p->s, n);
	buf[n] = 0;
	v->number = strtod(buf, NULL);
	if (!isfinite(v->number)) {
		fail(p, "number out of range (expected a magnitude below 1.8e308)");
		return NULL;
	}
	if (integer) {
		long long ll;

		/* Integers are exact when they fit int64_t, not only when the
		 * double happens to hold them. */
		errno = 0;
		ll = strtoll(buf, NULL, 10);
		v->is_integer = errno != ERANGE;
		v->int_overflow = !v->is_integer;
		v->integer = v->is_integer ? ll : 0;
	}
	while (p->s < q)
		advance(p);
	return v;
}

/*
 * Arrays and objects share their punctuation: before an item the container
 * may close (a trailing comma is accepted), after it comes ',' or the close.
 * Each returns -1 on error (p->failed is set), else what it says.
 */
/* Past white space to the next character of a container: -1 at an error
 * or the end of the input (p->failed is set), else 0. */
static int container_next(struct parser *p, char close, const char *what)
{
	skip_space(p);
	if (p->failed)
		return -1;
	if (p->s >= p->end) {
		fail(p, "unterminated %s (expected '%c')", what, close);
		return -1;
	}
	return 0;
}

static int container_closes(struct parser *p, char close, const char *what)
{
	if (container_next(p, close, what))
		return -1;
	if (*p->s != close)
		return 0;
	advance(p);
	return 1;
}

static int container_separator(struct parser *p, char close, const char *what)
{
	if (container_next(p, close, what))
		return -1;
	if (*p->s == ',') {
		advance(p);
	} else if (*p->s != close) {
		fail(p, "expected ',' or '%c' in %s", close, what);
		return -1;
	}
	return 0;
}

/* Room for one more item of @size bytes in the arena array @items. */
static void *container_grow(struct parser *p, void *items, size_t len, size_t *cap,
			    size_t size)
{
	size_t ncap;
	void *n;

	if (len < *cap)
		return items;
	ncap = *cap ? *cap * 2 : 8;
	n = arena_alloc(p, ncap * size);
	if (!n) {
		fail(p, "out of memory");
		return NULL;
	}
	if (*cap)
		memcpy(n, items, *cap * size);
	*cap = ncap;
	return n;
}

static struct json_value *parse_array(struct parser *p)
{
	struct json_value *v = new_value(p, JSON_ARRAY);
	struct json_value **items = NULL;
	size_t cap = 0;

	if (!v)
		return NULL;
	advance(p);
	while (container_closes(p, ']', "array") == 0) {
		items = container_grow(p, items, v->len, &cap, sizeof(*items));
		if (!items)
			break;
		items[v->len] = parse_value(p);
		if (!items[v->len])
			break;
		v->len++;
		if (container_separator(p, ']', "array"))
			break;
	}
	v->items = items;
	return p->failed ? NULL : v;
}

static struct json_value *parse_object(struct parser *p)
{
	struct json_value *v = new_value(p, JSON_OBJECT);
	struct json_member *m = NULL;
	size_t cap = 0;

	if (!v)
		return NULL;
	advance(p);
	while (container_closes(p, '}', "object") == 0) {
		struct json_member mem;
		size_t klen;

		if (*p->s != '"') {
			fail(p, "expected a string key or '}'");
			break;
		}
		mem.line = p->line;
		mem.col = p->col;
		mem.key = parse_string(p, &klen);
		if (!mem.key)
			break;
		skip_space(p);
		if (p->failed)
			break;
		mem.bare = p->s < p->end && (*p->s == ',' || *p->s == '}');
		if (mem.bare) {
			/* A bare key: a null value where the key stands. */
			int line = p->line, col = p->col;

			p->line = mem.line;
			p->col = mem.col;
			mem.value = new_value(p, JSON_NULL);
			p->line = line;
			p->col = col;
			if (!mem.value)
				break;
		} else if (p->s >= p->end || *p->s != ':') {
			fail(p, "expected ':' after key \"%s\"", mem.key);
			break;
		} else {
			advance(p);
			mem.value = parse_value(p);
			if (!mem.value)
				break;
		}
		m = container_grow(p, m, v->len, &cap, sizeof(*m));
		if (!m)
			break;
		m[v->len++] = mem;
		if (container_separator(p, '}', "object"))
			break;
	}
	v->members = m;
	return p->failed ? NULL : v;
}

static struct json_value *parse_value(struct parser *p)
{
	struct json_value *v = NULL;

	skip_space(p);
	if (p->failed)
		return NULL;
	if (p->s >= p->end) {
		fail(p, "unexpected end of input (expected a value)");
		return NULL;
	}
	if (++p->depth > JSON_MAX_DEPTH) {
		fail(p, "nesting deeper than %d", JSON_MAX_DEPTH);
		return NULL;
	}
	switch (*p->s) {
	case '{':
		v = parse_object(p);
		break;
	case '[':
		v = parse_array(p);
		break;
	case '"':
		v = new_value(p, JSON_STRING);
		if (v) {
			v->string = parse_string(p, &v->len);
			if (!v->string)
				v = NULL;
		}
		break;
	default:
		if (is_word(p, "true") || is_word(p, "false")) {
			v = new_value(p, JSON_BOOL);
			if (v) {
				v->boolean = *p->s == 't';
				for (int i = v->boolean ? 4 : 5; i > 0; i--)
					advance(p);
			}
		} else if (is_word(p, "null")) {
			v = new_value(p, JSON_NULL);
			for (int i = 0; i < 4 && v; i++)
				advance(p);
		} else {
			v = parse_number(p);
		}
	}
	p->depth--;
	return p->failed ? NULL : v;
}

int json_parse(struct json_doc *doc, const char *fname, const char *text, size_t len)
{
	struct parser p = { .doc = doc, .fname = fname, .s = text,
			    .end = text + len, .line = 1, .col = 1 };

	memset(doc, 0, sizeof(*doc));
	/* A UTF-8 byte-order mark, as some editors write, is not content. */
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		p.s += 3;
	doc->root = parse_value(&p);
	if (!p.failed) {
		skip_space(&p);
		if (!p.failed && p.s < p.end)
			fail(&p, "unexpected text after the document");
	}
	if (p.failed) {
		doc->root = NULL;
		return -1;
	}
	return 0;
}

void json_free(struct json_doc *doc)
{
	struct json_block *b = doc->blocks;

	while (b) {
		struct json_block *next = b->next;

		free(b);
		b = next;
	}
	doc->blocks = NULL;
	doc->root = NULL;
}

const char *json_type_name(enum json_type t)
{
	static const char *const names[] = { "null", "boolean", "number",
					     "string", "array", "object" };

	return names[t];
}

void json_number_text(char *buf, size_t len, double v)
{
	for (int digits = 1; digits <= 17; digits++) {
		snprintf(buf, len, "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}
