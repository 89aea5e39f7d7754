// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for markers-list's ELF reader, built and run for a
 * short while by harness/host-tests/markers-tools.sh (clang
 * -fsanitize=fuzzer,address,undefined fuzz-markers-list.c format.c -lelf,
 * then -detect_leaks=0 CORPUS_DIR).
 *
 * Each input is read as an ELF file, records and notes; a malformed one
 * must end in markers-list's error path, never in a crash or a hang.
 */
#define MARKERS_LIST_NO_MAIN
#include "markers-list.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int inited;
	jmp_buf jb;
	struct file f;
	int notes;

	if (!inited) {
		elf_version(EV_CURRENT);
		stderr = fopen("/dev/null", "w");
		inited = 1;
	}
	for (notes = 0; notes < 2; notes++) {
		memset(&f, 0, sizeof(f));
		f.path = "fuzz";
		f.buf = malloc(size ? size : 1);
		if (!f.buf)
			return 0;
		memcpy(f.buf, data, size);
		f.size = size;
		die_jmp = &jb;
		if (!setjmp(jb))
			load(&f, notes);
		else if (f.elf)
			elf_end(f.elf);
		die_jmp = NULL;
		free(f.sh);
		free(f.data);
		free(f.buf);
		free((char *)f.module);
		free_sites();
	}
	return 0;
}
