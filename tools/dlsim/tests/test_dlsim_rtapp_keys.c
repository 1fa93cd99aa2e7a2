/*
 * Every key and event of rt-app's parser (tests/data/rtapp_keys.txt, our own
 * list of rt-app master's names) is modelled, refused by name, or accepted
 * as neutral, as the list says: for each line a small workload using the key
 * is read (and simulated), and docs/dlsim-researchers.md must have a row for
 * it. A line's status is data: changing what dlsim does with a key is one
 * line there and one row in the docs.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dls_test.h"
#include "dls_test_dlsim.h"
#include "workload.h"

#define HORIZON "\"simulation\": {\"horizon_us\": 20000}"

struct key_line {
	char section[16], key[48], status[16], value[160], context[256];
	int lineno;
};

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = 0;
	fclose(f);
	return buf;
}

/* Split one tab-separated line of the list; false for a comment. */
static bool parse_line(char *line, int lineno, struct key_line *k)
{
	char *col[5] = { 0 };
	int n = 0;

	if (line[0] == '#' || !line[0])
		return false;
	for (char *p = line; n < 5; n++) {
		col[n] = p;
		p = strchr(p, '\t');
		if (!p)
			break;
		*p++ = 0;
	}
	memset(k, 0, sizeof(*k));
	k->lineno = lineno;
	snprintf(k->section, sizeof(k->section), "%s", col[0]);
	snprintf(k->key, sizeof(k->key), "%s", col[1] ? col[1] : "");
	snprintf(k->status, sizeof(k->status), "%s", col[2] ? col[2] : "");
	snprintf(k->value, sizeof(k->value), "%s", col[3] ? col[3] : "");
	snprintf(k->context, sizeof(k->context), "%s", col[4] ? col[4] : "");
	return true;
}

/* The JSON key the line's key is written as ("timer" for "timer.mode"). */
static void json_key(const struct key_line *k, char *out, size_t n)
{
	const char *dot = strchr(k->key, '.');

	snprintf(out, n, "%.*s", dot ? (int)(dot - k->key) : (int)strlen(k->key), k->key);
}

/* A workload using the line's key; false for an unknown section. */
static bool build(const struct key_line *k, char *text, size_t n)
{
	const char *sep = k->context[0] ? ", " : "";
	char jk[48];

	json_key(k, jk, sizeof(jk));
	if (!strcmp(k->section, "top"))
		snprintf(text, n, "{\"%s\": %s%s%s, " HORIZON "}", jk, k->value, sep, k->context);
	else if (!strcmp(k->section, "global"))
		snprintf(text, n, "{\"global\": {\"%s\": %s}%s%s, " HORIZON "}", jk, k->value, sep,
			 k->context);
	else if (!strcmp(k->section, "resource"))
		snprintf(text, n, "{\"resources\": {\"m\": {\"%s\": %s}}, \"tasks\": {\"t\": "
			 "{\"lock\": \"m\", \"run\": 100, \"unlock\": \"m\"}}, " HORIZON "}", jk,
			 k->value);
	else if (!strcmp(k->section, "task"))
		snprintf(text, n, "{\"tasks\": {\"t\": {\"%s\": %s%s%s}}, " HORIZON "}", jk, k->value,
			 sep, k->context);
	else if (!strcmp(k->section, "phase") || !strcmp(k->section, "event")) {
		/* an "@" in the context stands for the key: the members before
		 * it come first (an unlock after its lock) */
		const char *at = strchr(k->context, '@');
		int before = at ? (int)(at - k->context) : 0;

		/* "u" starts only when forked: the target of a fork event */
		snprintf(text, n, "{\"tasks\": {\"t\": {\"phases\": {\"p\": {%.*s\"%s\": %s%s%s}}}, "
			 "\"u\": {\"instance\": 0, \"run\": 100}}, "
			 HORIZON "}", before, k->context, jk, k->value, at ? "" : sep,
			 at ? at + 1 : k->context);
	}
	else
		return false;
	return true;
}

static bool any_diag(const struct workload *w, const char *needle)
{
	for (size_t i = 0; i < w->nr_diags; i++)
		if (strstr(w->diags[i], needle))
			return true;
	return false;
}

static void report(const struct key_line *k, const char *text, const struct workload *w,
		   const char *what)
{
	fprintf(stderr, "\nrtapp_keys.txt:%d: %s \"%s\" (%s): %s\n  %s\n", k->lineno, k->section,
		k->key, k->status, what, text);
	for (size_t i = 0; i < w->nr_diags; i++)
		fprintf(stderr, "  %s\n", w->diags[i]);
}

static void check_modelled(const struct key_line *k, const char *text)
{
	struct workload w;
	struct sim_options opt = { .check = true, .quiet = true };
	struct sim_result res;
	int rc = workload_load(&w, "w.json", text, strlen(text), false);

	if (rc || any_diag(&w, "unknown key") || any_diag(&w, "not modelled")) {
		report(k, text, &w, "modelled, yet refused or not known");
		CU_FAIL("a modelled key is refused or unknown");
	} else if (sim_run(&w, &opt, stdout, &res) || res.exit_code != DLSIM_EXIT_OK) {
		report(k, text, &w, "modelled, yet the run fails");
		CU_FAIL("a modelled key does not run");
	}
	workload_free(&w);
}

/* The command line's status for @text: 65 for a workload refused (its
 * diagnostics go to stderr, into the test's log). */
static int cli_status(const char *text)
{
	char path[] = "/tmp/dlsim-keys-XXXXXX";
	int fd = mkstemp(path), rc;
	struct workload w;

	if (fd < 0)
		return -1;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		close(fd);
		unlink(path);
		return -1;
	}
	close(fd);
	rc = workload_load_cli(&w, "dlsim", path, false);
	if (rc == 0)
		workload_free(&w);
	unlink(path);
	return rc;
}

/* Refused: an error naming the key at its position (the key's or its
 * value's column), and the command line's 65. */
static void check_refused(const struct key_line *k, const char *text)
{
	struct workload w;
	char jk[48], quoted[56], at_key[32], at_value[32];
	const char *pos;
	int rc = workload_load(&w, "w.json", text, strlen(text), false);
	bool named = false;

	json_key(k, jk, sizeof(jk));
	snprintf(quoted, sizeof(quoted), "\"%s\"", jk);
	pos = strstr(text, quoted);
	snprintf(at_key, sizeof(at_key), "w.json:1:%d: error: ", pos ? (int)(pos - text) + 1 : 0);
	snprintf(at_value, sizeof(at_value), "w.json:1:%d: error: ",
		 pos ? (int)(pos - text) + (int)strlen(quoted) + 3 : 0);
	for (size_t i = 0; i < w.nr_diags; i++)
		if (strstr(w.diags[i], quoted) && (!strncmp(w.diags[i], at_key, strlen(at_key)) ||
						  !strncmp(w.diags[i], at_value, strlen(at_value))))
			named = true;
	if (rc != -1 || !named) {
		report(k, text, &w, "refused, yet no error names it at its position");
		CU_FAIL("a refused key is not refused by name and position");
	}
	workload_free(&w);
	if (cli_status(text) != 65) {
		fprintf(stderr, "rtapp_keys.txt:%d: \"%s\": the command line does not exit 65\n",
			k->lineno, k->key);
		CU_FAIL("a refused key does not exit 65");
	}
}

/* Neutral: accepted without a word, even under --strict, and it runs. */
static void check_neutral(const struct key_line *k, const char *text)
{
	struct workload w;
	struct sim_options opt = { .check = true, .quiet = true };
	struct sim_result res;
	int rc = workload_load(&w, "w.json", text, strlen(text), true);

	if (rc || w.nr_diags) {
		report(k, text, &w, "neutral, yet not accepted silently");
		CU_FAIL("a neutral key is not accepted silently");
	} else if (sim_run(&w, &opt, stdout, &res) || res.exit_code != DLSIM_EXIT_OK) {
		report(k, text, &w, "neutral, yet the run fails");
		CU_FAIL("a neutral key does not run");
	}
	workload_free(&w);
}

/* A row of the docs' grammar table naming `key` and its status. */
static bool docs_row(const char *docs, const struct key_line *k)
{
	char tick[56];
	const char *p = docs;

	snprintf(tick, sizeof(tick), "`%s`", k->key);
	while ((p = strstr(p, tick))) {
		const char *bol = p, *eol = strchr(p, '\n');

		while (bol > docs && bol[-1] != '\n')
			bol--;
		if (!eol)
			eol = p + strlen(p);
		if (*bol == '|') {
			char row[1024];

			snprintf(row, sizeof(row), "%.*s", (int)(eol - bol), bol);
			if (strstr(row, k->status))
				return true;
		}
		p = eol;
	}
	return false;
}

static void test_every_key(void)
{
	char *list = read_all(DLSIM_SOURCE_DIR "/tests/data/rtapp_keys.txt");
	char *docs = read_all(DLSIM_SOURCE_DIR "/docs/dlsim-researchers.md");
	char *save = NULL, *line;
	int lineno = 0, keys = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(list);
	CU_ASSERT_PTR_NOT_NULL_FATAL(docs);
	for (line = strtok_r(list, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct key_line k;
		char text[1024];

		lineno++;
		if (!parse_line(line, lineno, &k))
			continue;
		keys++;
		if (!build(&k, text, sizeof(text))) {
			fprintf(stderr, "rtapp_keys.txt:%d: unknown section \"%s\"\n", lineno,
				k.section);
			CU_FAIL("unknown section");
			continue;
		}
		if (!strcmp(k.status, "modelled"))
			check_modelled(&k, text);
		else if (!strcmp(k.status, "refused"))
			check_refused(&k, text);
		else if (!strcmp(k.status, "neutral"))
			check_neutral(&k, text);
		else
			CU_FAIL("a status is none of modelled, refused, neutral");
		if (!docs_row(docs, &k)) {
			fprintf(stderr, "rtapp_keys.txt:%d: no row for `%s` (%s) in "
				"docs/dlsim-researchers.md\n", lineno, k.key, k.status);
			CU_FAIL("a key has no row in the docs");
		}
	}
	/* rt-app master's parser has 20 events, 13 global keys and more */
	CU_ASSERT_TRUE(keys >= 60);
	free(list);
	free(docs);
}

/* A key rt-app does not know stays a warning; --strict makes it an error. */
static void test_unknown_key(void)
{
	static const char text[] = "{\"tasks\": {\"t\": {\"run\": 100, \"bogus\": 1}}}";
	struct workload w;

	DLS_ASSERT_EQ_S64(workload_load(&w, "w.json", text, sizeof(text) - 1, false), 0);
	CU_ASSERT_TRUE(w.warnings == 1 && any_diag(&w, "warning: unknown key \"bogus\""));
	workload_free(&w);
	DLS_ASSERT_EQ_S64(workload_load(&w, "w.json", text, sizeof(text) - 1, true), -1);
	CU_ASSERT_TRUE(any_diag(&w, "error: unknown key \"bogus\""));
	workload_free(&w);
}

static const struct dls_test_case cases[] = {
	{ "every rt-app key: modelled, refused or neutral", test_every_key },
	{ "unknown keys warn, --strict refuses", test_unknown_key },
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "dlsim rt-app keys", cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	return dls_test_main(argc, argv, suites);
}
