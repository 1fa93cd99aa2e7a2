/*
 * libFuzzer target for the workload reader: every input, however broken,
 * must either load or come back with diagnostics, never crash or leak.
 * The JSON layer is exercised on its own too, and a successful load is
 * dumped so the printer sees every shape the reader accepts.
 */
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "workload.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct json_doc doc;
	struct workload w;
	FILE *null_out;

	memset(&doc, 0, sizeof(doc));
	if (json_parse(&doc, "fuzz.json", (const char *)data, size) != 0 &&
	    doc.error[0] == '\0')
		__builtin_trap(); /* a failure always says why */
	json_free(&doc);

	memset(&w, 0, sizeof(w));
	null_out = fopen("/dev/null", "w");
	if (workload_load(&w, "fuzz.json", (const char *)data, size, size & 1) != 0 &&
	    w.nr_diags == 0)
		__builtin_trap(); /* an error always comes with a diagnostic */
	if (null_out) {
		workload_print_diags(&w, null_out);
		if (w.errors == 0)
			workload_dump(&w, null_out);
		fclose(null_out);
	}
	workload_free(&w);
	return 0;
}
