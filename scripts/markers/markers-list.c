// SPDX-License-Identifier: GPL-2.0
/*
 * markers-list: list the kernel marker sites of an ELF file, offline.
 *
 *	markers-list [--format=table|json] [--catalog] [--notes] FILE...
 *	markers-list --classes < FORMATS
 *
 * FILE is a vmlinux, a .ko or a .o, of x86-64 or arm64. Each MARK(),
 * MARK_ENABLED() and SDT_PROBE() site of its __markers section is printed
 * with its kind, its name ("provider:name" for SDT sites), its format or
 * operand spec, the function and offset that contain it, and its section
 * and address. In a relocatable file the records' relative offsets are
 * resolved through their relocations. --notes lists the SystemTap v3
 * notes of .note.stapsdt instead, with the .stapsdt.base adjustment.
 * --catalog prints one sorted line per (name, kind, format): the number of
 * sites and the modules that have them.
 *
 * The records are read as include/linux/marker_site.h lays them out, the
 * kernel's own definition. --classes reads printf formats on standard
 * input, one a line, and prints for each the va_arg() classes of its
 * arguments ("int,str,long"; an empty line for none), or "invalid": the
 * kernel's own grammar, kernel/markers/format.c, built for the host
 * (format.c here). markers-diff asks it to compare formats.
 *
 * Malformed input is an error (exit status 1), never a crash: every
 * offset, size, string and relocation is checked against its section.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The record layout, over the host's <linux/types.h>. */
#include "../../include/linux/marker_site.h"
/* The format grammar: kernel/markers/format.c, built by format.c here. */
#include "format-host.h"
#include "../../kernel/markers/format.h"

#define USAGE "usage: markers-list [--format=table|json] [--catalog] [--notes] FILE...\n" \
	      "       markers-list --classes < FORMATS\n"

/* The note type of SystemTap v3 SDT notes (owner "stapsdt"). */
#define NT_STAPSDT	3

/* resolve_rel32() reads the self-relative fields as 32-bit offsets. */
_Static_assert(sizeof(((struct marker_site *)0)->code) == 4 &&
	       sizeof(((struct marker_site *)0)->name) == 4 &&
	       sizeof(((struct marker_site *)0)->format) == 4 &&
	       sizeof(((struct marker_site *)0)->kind) == 4,
	       "struct marker_site: the fields must be 32-bit");

struct site {
	int kind;
	char *name, *format, *func, *section, *module;
	unsigned long long off, addr;
};

struct file {
	const char *path;
	void *buf;		/* in memory (the fuzzer), else read @path */
	size_t size;
	Elf *elf;
	int fd;
	GElf_Ehdr eh;
	size_t nsec, shstrndx;
	GElf_Shdr *sh;
	Elf_Data **data;
	size_t symtab;		/* index of .symtab, 0 if none */
	const char *module;
};

static struct site *sites;
static size_t nsites, maxsites;
static const char *cur_path;
/* Set by the fuzzer: errors jump back to it instead of exiting. */
static jmp_buf *die_jmp;

static void __attribute__((noreturn, format(printf, 1, 2))) die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "markers-list: %s: ", cur_path ? cur_path : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (die_jmp)
		longjmp(*die_jmp, 1);
	exit(1);
}

static void *xmalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (!p)
		die("out of memory");
	return p;
}

static char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		die("out of memory");
	return p;
}

static const char *secname(struct file *f, size_t i)
{
	const char *n = elf_strptr(f->elf, f->shstrndx, f->sh[i].sh_name);

	return n ? n : "?";
}

static size_t find_section(struct file *f, const char *name)
{
	size_t i;

	for (i = 1; i < f->nsec; i++)
		if (!strcmp(secname(f, i), name))
			return i;
	return 0;
}

/* @len bytes at @off of section @i, or NULL if out of bounds. */
static const unsigned char *sec_bytes(struct file *f, size_t i,
				      unsigned long long off, size_t len)
{
	Elf_Data *d;

	if (!i || i >= f->nsec || f->sh[i].sh_type == SHT_NOBITS)
		return NULL;
	d = f->data[i];
	if (!d || !d->d_buf || off > d->d_size || len > d->d_size - off)
		return NULL;
	return (const unsigned char *)d->d_buf + off;
}

/* A NUL-terminated string at @off of section @i, or die. */
static const char *sec_string(struct file *f, size_t i, unsigned long long off)
{
	const unsigned char *p = sec_bytes(f, i, off, 1);
	size_t room;

	if (!p)
		die("string at %s+0x%llx is outside its section",
		    i < f->nsec ? secname(f, i) : "?", off);
	room = f->data[i]->d_size - off;
	if (!memchr(p, '\0', room))
		die("string at %s+0x%llx has no NUL terminator", secname(f, i), off);
	return (const char *)p;
}

/* The allocated section holding address @addr (linked files). */
static size_t addr_section(struct file *f, unsigned long long addr,
			   unsigned long long *off)
{
	size_t i;

	for (i = 1; i < f->nsec; i++) {
		if (!(f->sh[i].sh_flags & SHF_ALLOC) || f->sh[i].sh_type == SHT_NOBITS)
			continue;
		if (addr >= f->sh[i].sh_addr && addr - f->sh[i].sh_addr < f->sh[i].sh_size) {
			*off = addr - f->sh[i].sh_addr;
			return i;
		}
	}
	return 0;
}

/* The relocation of @target's byte @off, for a relocatable file. */
static int find_rela(struct file *f, size_t target, unsigned long long off,
		     GElf_Rela *out, GElf_Sym *sym)
{
	size_t i, j, n;

	for (i = 1; i < f->nsec; i++) {
		if (f->sh[i].sh_type != SHT_RELA || f->sh[i].sh_info != target)
			continue;
		if (!f->data[i] || !f->sh[i].sh_entsize)
			die("bad relocation section %s", secname(f, i));
		n = f->data[i]->d_size / sizeof(Elf64_Rela);
		for (j = 0; j < n; j++) {
			if (!gelf_getrela(f->data[i], j, out))
				die("bad relocation %zu in %s", j, secname(f, i));
			if (out->r_offset != off)
				continue;
			if (f->sh[i].sh_link != f->symtab || !f->symtab ||
			    !gelf_getsym(f->data[f->symtab], GELF_R_SYM(out->r_info), sym))
				die("relocation %zu in %s: bad symbol", j, secname(f, i));
			return 1;
		}
	}
	return 0;
}

/*
 * Where the self-relative field at byte @off of section @sec points:
 * a section and an offset in it.
 */
static size_t resolve_rel32(struct file *f, size_t sec, unsigned long long off,
			    unsigned long long *toff)
{
	const unsigned char *p = sec_bytes(f, sec, off, 4);
	GElf_Rela r;
	GElf_Sym s;
	int32_t v;

	if (!p)
		die("record field at %s+0x%llx is past the section's end", secname(f, sec), off);
	memcpy(&v, p, 4);
	if (f->eh.e_type == ET_REL) {
		if (!find_rela(f, sec, off, &r, &s))
			die("no relocation for %s+0x%llx", secname(f, sec), off);
		/* The assembler's ".long sym - .", on each arch. */
		if (GELF_R_TYPE(r.r_info) != (f->eh.e_machine == EM_AARCH64 ?
					      R_AARCH64_PREL32 : R_X86_64_PC32))
			die("relocation for %s+0x%llx is not PC32", secname(f, sec), off);
		if (s.st_shndx == SHN_UNDEF || s.st_shndx >= f->nsec)
			die("relocation for %s+0x%llx: symbol in no section", secname(f, sec), off);
		*toff = s.st_value + r.r_addend;
		if (*toff > f->sh[s.st_shndx].sh_size)
			die("relocation for %s+0x%llx points past %s", secname(f, sec), off,
			    secname(f, s.st_shndx));
		return s.st_shndx;
	}
	return addr_section(f, f->sh[sec].sh_addr + off + (int64_t)v, toff);
}

/* "function+0xoff" for @off in section @sec (or "?"). */
static char *func_of(struct file *f, size_t sec, unsigned long long off)
{
	unsigned long long addr = f->eh.e_type == ET_REL ? off : f->sh[sec].sh_addr + off;
	GElf_Sym s, best = { 0 };
	const char *name, *bestname = NULL;
	char buf[512];
	size_t i, n;

	if (!f->symtab || !f->data[f->symtab])
		return xstrdup("?");
	n = f->data[f->symtab]->d_size / sizeof(Elf64_Sym);
	for (i = 1; i < n; i++) {
		if (!gelf_getsym(f->data[f->symtab], i, &s))
			die("bad symbol %zu", i);
		if (GELF_ST_TYPE(s.st_info) != STT_FUNC || s.st_shndx != sec)
			continue;
		if (addr < s.st_value || addr - s.st_value >= (s.st_size ? s.st_size : 1))
			continue;
		name = elf_strptr(f->elf, f->sh[f->symtab].sh_link, s.st_name);
		if (!name)
			die("symbol %zu has a bad name", i);
		if (!bestname || s.st_value > best.st_value) {
			best = s;
			bestname = name;
		}
	}
	if (!bestname)
		return xstrdup("?");
	snprintf(buf, sizeof(buf), "%s+0x%llx", bestname,
		 (unsigned long long)(addr - best.st_value));
	return xstrdup(buf);
}

static void free_sites(void)
{
	size_t i;

	for (i = 0; i < nsites; i++) {
		free(sites[i].name);
		free(sites[i].format);
		free(sites[i].func);
		free(sites[i].section);
		free(sites[i].module);
	}
	nsites = 0;
}

static void add_site(struct site *s)
{
	if (nsites == maxsites) {
		maxsites = maxsites ? 2 * maxsites : 256;
		sites = realloc(sites, maxsites * sizeof(*sites));
		if (!sites)
			die("out of memory");
	}
	sites[nsites++] = *s;
}

/* The address of symbol @name (linked files), 0 if none. */
static unsigned long long sym_addr(struct file *f, const char *name)
{
	const char *n;
	GElf_Sym s;
	size_t i, cnt;

	if (!f->symtab || !f->data[f->symtab])
		return 0;
	cnt = f->data[f->symtab]->d_size / sizeof(Elf64_Sym);
	for (i = 1; i < cnt; i++) {
		if (!gelf_getsym(f->data[f->symtab], i, &s))
			die("bad symbol %zu", i);
		n = elf_strptr(f->elf, f->sh[f->symtab].sh_link, s.st_name);
		if (n && !strcmp(n, name))
			return s.st_value;
	}
	return 0;
}

static void read_markers(struct file *f)
{
	size_t sec = find_section(f, "__markers"), tsec;
	unsigned long long off, toff, start = 0, stop, a, b;
	const unsigned char *p;
	struct site s;
	__u32 kind;

	if (sec) {
		stop = f->sh[sec].sh_size;
	} else if (f->eh.e_type != ET_REL) {
		/* vmlinux: the records sit in .rodata, between two symbols. */
		a = sym_addr(f, "__start___markers");
		b = sym_addr(f, "__stop___markers");
		if (!a || !b)
			return;
		if (b < a)
			die("__stop___markers is before __start___markers");
		sec = addr_section(f, a, &start);
		if (!sec || b - a > f->sh[sec].sh_size - start)
			die("__start___markers..__stop___markers is outside any section");
		stop = start + (b - a);
	} else {
		return;
	}
	if (f->sh[sec].sh_type == SHT_NOBITS || (stop - start) % sizeof(struct marker_site))
		die("__markers is not a whole number of %zu-byte records",
		    sizeof(struct marker_site));
	for (off = start; off < stop; off += sizeof(struct marker_site)) {
		p = sec_bytes(f, sec, off, sizeof(struct marker_site));
		if (!p)
			die("record at %s+0x%llx is past the section's end", secname(f, sec), off);
		memcpy(&kind, p + offsetof(struct marker_site, kind), sizeof(kind));
		if (kind > MARKER_KIND_SDT)
			die("record at %s+0x%llx: unknown kind %u", secname(f, sec), off, kind);
		memset(&s, 0, sizeof(s));
		s.kind = kind;
		tsec = resolve_rel32(f, sec, off + offsetof(struct marker_site, name), &toff);
		if (!tsec)
			die("record at %s+0x%llx: name outside the file", secname(f, sec), off);
		s.name = xstrdup(sec_string(f, tsec, toff));
		tsec = resolve_rel32(f, sec, off + offsetof(struct marker_site, format), &toff);
		if (!tsec)
			die("record at %s+0x%llx: format outside the file", secname(f, sec), off);
		s.format = xstrdup(sec_string(f, tsec, toff));
		tsec = resolve_rel32(f, sec, off + offsetof(struct marker_site, code), &toff);
		if (!tsec)
			die("record at %s+0x%llx: site outside the file", secname(f, sec), off);
		s.off = toff;
		s.addr = f->eh.e_type == ET_REL ? toff : f->sh[tsec].sh_addr + toff;
		s.section = xstrdup(secname(f, tsec));
		s.func = func_of(f, tsec, toff);
		s.module = xstrdup(f->module);
		add_site(&s);
	}
}

/* The 8-byte address at byte @off of the note section @sec. */
static unsigned long long note_addr(struct file *f, size_t sec, unsigned long long off)
{
	const unsigned char *p = sec_bytes(f, sec, off, 8);
	unsigned long long v;
	GElf_Rela r;
	GElf_Sym s;

	if (!p)
		die("note address past the end of %s", secname(f, sec));
	memcpy(&v, p, 8);
	if (f->eh.e_type == ET_REL && find_rela(f, sec, off, &r, &s))
		v = s.st_value + r.r_addend;
	return v;
}

/*
 * The SystemTap v3 notes of .note.stapsdt, walked with libelf's
 * gelf_getnote(), which checks each note's sizes against the section.
 */
static void read_notes(struct file *f)
{
	size_t sec = find_section(f, ".note.stapsdt"), bsec, tsec, next, name_off, desc_off;
	unsigned long long off = 0, size, descsz, d, pc, base, toff;
	const unsigned char *p;
	const char *prov, *name, *args;
	GElf_Nhdr nh;
	struct site s;
	char buf[1024];

	if (!sec)
		return;
	bsec = find_section(f, ".stapsdt.base");
	size = f->data[sec] ? f->data[sec]->d_size : 0;
	/* Only a SHT_NOTE section's data is notes to libelf. */
	if (size && f->sh[sec].sh_type != SHT_NOTE)
		die(".note.stapsdt is not a note section");
	while (off < size) {
		if (!sec_bytes(f, sec, off, sizeof(nh)))
			die("truncated note header at .note.stapsdt+0x%llx", off);
		next = gelf_getnote(f->data[sec], off, &nh, &name_off, &desc_off);
		if (!next)
			die("note at .note.stapsdt+0x%llx overruns the section", off);
		descsz = nh.n_descsz;
		d = desc_off;
		p = sec_bytes(f, sec, name_off, nh.n_namesz);
		if (nh.n_type == NT_STAPSDT && nh.n_namesz == 8 && p &&
		    !memcmp(p, "stapsdt", 8)) {
			if (descsz < 24 + 3)
				die("stapsdt note at +0x%llx is too small", off);
			pc = note_addr(f, sec, d);
			base = note_addr(f, sec, d + 8);
			p = sec_bytes(f, sec, d + 24, descsz - 24);
			if (!p || !memchr(p, '\0', descsz - 24))
				die("stapsdt note at +0x%llx: unterminated strings", off);
			prov = (const char *)p;
			name = prov + strlen(prov) + 1;
			if ((const unsigned char *)name >= p + descsz - 24 ||
			    !memchr(name, '\0', p + descsz - 24 - (const unsigned char *)name))
				die("stapsdt note at +0x%llx: no name", off);
			args = name + strlen(name) + 1;
			if ((const unsigned char *)args >= p + descsz - 24 ||
			    !memchr(args, '\0', p + descsz - 24 - (const unsigned char *)args))
				die("stapsdt note at +0x%llx: no arguments", off);
			memset(&s, 0, sizeof(s));
			s.kind = MARKER_KIND_SDT;
			snprintf(buf, sizeof(buf), "%s:%s", prov, name);
			s.name = xstrdup(buf);
			s.format = xstrdup(args);
			if (f->eh.e_type == ET_REL) {
				/* The site is relative to the text section it relocates to. */
				GElf_Rela r;
				GElf_Sym sy;

				tsec = find_rela(f, sec, d, &r, &sy) ? sy.st_shndx : 0;
				s.off = pc;
				s.addr = pc;
			} else {
				/* Adjust by where .stapsdt.base really is. */
				if (bsec && base)
					pc += f->sh[bsec].sh_addr - base;
				tsec = addr_section(f, pc, &toff);
				s.off = toff;
				s.addr = pc;
			}
			s.section = xstrdup(tsec && tsec < f->nsec ? secname(f, tsec) : "?");
			s.func = tsec && tsec < f->nsec ? func_of(f, tsec, s.off) : xstrdup("?");
			s.module = xstrdup(f->module);
			add_site(&s);
		}
		off = next;
	}
}

static const char *module_name(struct file *f, char *buf, size_t size)
{
	size_t sec = find_section(f, ".modinfo"), i;
	const char *base = strrchr(f->path, '/'), *s;

	if (sec && f->data[sec]) {
		s = f->data[sec]->d_buf;
		for (i = 0; i + 5 < f->data[sec]->d_size; i++) {
			if ((i == 0 || s[i - 1] == '\0') && !strncmp(s + i, "name=", 5) &&
			    memchr(s + i, '\0', f->data[sec]->d_size - i)) {
				snprintf(buf, size, "%s", s + i + 5);
				return buf;
			}
		}
	}
	base = base ? base + 1 : f->path;
	if (f->eh.e_type != ET_REL)
		return "vmlinux";
	snprintf(buf, size, "%s", base);
	buf[strcspn(buf, ".")] = '\0';
	for (i = 0; buf[i]; i++)
		if (buf[i] == '-')
			buf[i] = '_';
	return buf;
}

static void load(struct file *f, int notes)
{
	char modbuf[256];
	Elf_Scn *scn;
	size_t i;

	cur_path = f->path;
	if (f->buf) {
		f->fd = -1;
		f->elf = elf_memory(f->buf, f->size);
	} else {
		f->fd = open(f->path, O_RDONLY);
		if (f->fd < 0)
			die("%s", strerror(errno));
		f->elf = elf_begin(f->fd, ELF_C_READ, NULL);
	}
	if (!f->elf || elf_kind(f->elf) != ELF_K_ELF)
		die("not an ELF file");
	if (!gelf_getehdr(f->elf, &f->eh))
		die("bad ELF header: %s", elf_errmsg(-1));
	if (gelf_getclass(f->elf) != ELFCLASS64 ||
	    (f->eh.e_machine != EM_X86_64 && f->eh.e_machine != EM_AARCH64))
		die("not an x86-64 or arm64 ELF file");
	if (elf_getshdrnum(f->elf, &f->nsec) || elf_getshdrstrndx(f->elf, &f->shstrndx))
		die("bad section headers: %s", elf_errmsg(-1));
	if (!f->nsec || f->shstrndx >= f->nsec)
		die("bad section headers");
	f->sh = xmalloc(f->nsec * sizeof(*f->sh));
	f->data = xmalloc(f->nsec * sizeof(*f->data));
	for (i = 1; i < f->nsec; i++) {
		scn = elf_getscn(f->elf, i);
		if (!scn || !gelf_getshdr(scn, &f->sh[i]))
			die("bad section header %zu: %s", i, elf_errmsg(-1));
		if (f->sh[i].sh_type != SHT_NOBITS) {
			f->data[i] = elf_getdata(scn, NULL);
			if (!f->data[i] && f->sh[i].sh_size)
				die("section %zu: %s", i, elf_errmsg(-1));
		}
		if (f->sh[i].sh_type == SHT_SYMTAB) {
			if (f->sh[i].sh_link >= f->nsec)
				die("bad .symtab link");
			f->symtab = i;
		}
	}
	f->module = module_name(f, modbuf, sizeof(modbuf));
	f->module = xstrdup(f->module);
	if (notes)
		read_notes(f);
	else
		read_markers(f);
	elf_end(f->elf);
	f->elf = NULL;
	if (f->fd >= 0)
		close(f->fd);
}

static const char *kind_name(int k)
{
	return k == MARKER_KIND_SDT ? "sdt" : k == MARKER_KIND_GUARD ? "guard" : "mark";
}

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

static int cmp_catalog(const void *a, const void *b)
{
	const struct site *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (!c)
		c = x->kind - y->kind;
	if (!c)
		c = strcmp(x->format, y->format);
	if (!c)
		c = strcmp(x->module, y->module);
	return c;
}

static void catalog(void)
{
	size_t i, j, k;

	qsort(sites, nsites, sizeof(*sites), cmp_catalog);
	for (i = 0; i < nsites; i = j) {
		for (j = i; j < nsites && !strcmp(sites[j].name, sites[i].name) &&
		     sites[j].kind == sites[i].kind &&
		     !strcmp(sites[j].format, sites[i].format); j++)
			;
		printf("%s %s \"%s\" sites %zu modules ", sites[i].name,
		       kind_name(sites[i].kind), sites[i].format, j - i);
		for (k = i; k < j; k++)
			if (k == i || strcmp(sites[k].module, sites[k - 1].module))
				printf("%s%s", k == i ? "" : ",", sites[k].module);
		putchar('\n');
	}
}

#ifndef MARKERS_LIST_NO_MAIN
/*
 * --classes: for each format on standard input, one a line, the classes
 * of its arguments ("int,str,long"), an empty line for none, or "invalid".
 */
static int classes(void)
{
	u8 cls[MARKER_MAX_ARGS];
	char *line = NULL;
	size_t room = 0;
	ssize_t len;
	int i, n;

	while ((len = getline(&line, &room, stdin)) >= 0) {
		if (len && line[len - 1] == '\n')
			line[len - 1] = '\0';
		n = marker_parse_format(line, cls, MARKER_MAX_ARGS);
		if (n < 0)
			fputs("invalid", stdout);
		for (i = 0; i < n; i++)
			printf("%s%s", i ? "," : "", marker_arg_class_name(cls[i]));
		putchar('\n');
	}
	free(line);
	if (ferror(stdin)) {
		fprintf(stderr, "markers-list: standard input: %s\n", strerror(errno));
		return 1;
	}
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "markers-list: standard output: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int json = 0, cat = 0, notes = 0, i, nfiles = 0;
	struct file f;
	size_t j;

	if (argc >= 2 && !strcmp(argv[1], "--classes")) {
		if (argc > 2) {
			fputs(USAGE, stderr);
			return 1;
		}
		return classes();
	}
	if (elf_version(EV_CURRENT) == EV_NONE) {
		fprintf(stderr, "markers-list: libelf too old\n");
		return 1;
	}
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--format=json")) {
			json = 1;
		} else if (!strcmp(argv[i], "--format=table")) {
			json = 0;
		} else if (!strcmp(argv[i], "--catalog")) {
			cat = 1;
		} else if (!strcmp(argv[i], "--notes")) {
			notes = 1;
		} else if (argv[i][0] == '-') {
			/* --classes comes alone, first. */
			fputs(USAGE, stderr);
			return 1;
		}
	}
	for (i = 1; i < argc; i++) {
		if (argv[i][0] == '-')
			continue;
		memset(&f, 0, sizeof(f));
		f.path = argv[i];
		load(&f, notes);
		free(f.sh);
		free(f.data);
		nfiles++;
	}
	if (!nfiles) {
		fputs(USAGE, stderr);
		return 1;
	}
	if (cat) {
		catalog();
		free_sites();
		return 0;
	}
	for (j = 0; j < nsites; j++) {
		struct site *s = &sites[j];

		if (json) {
			printf("{\"kind\": \"%s\", \"name\": ", kind_name(s->kind));
			json_str(s->name);
			printf(", \"format\": ");
			json_str(s->format);
			printf(", \"function\": ");
			json_str(s->func);
			printf(", \"section\": ");
			json_str(s->section);
			printf(", \"address\": \"0x%llx\", \"module\": ", s->addr);
			json_str(s->module);
			printf("}\n");
		} else {
			printf("%-5s %-32s \"%s\" %s %s 0x%llx [%s]\n", kind_name(s->kind),
			       s->name, s->format, s->func, s->section, s->addr, s->module);
		}
	}
	free_sites();
	return 0;
}
#endif /* MARKERS_LIST_NO_MAIN */
