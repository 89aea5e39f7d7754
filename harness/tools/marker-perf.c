// SPDX-License-Identifier: GPL-2.0
/*
 * marker-perf: a marker trace event seen by perf_event_open() and by a
 * BPF program, with exact counts and field values. Built static on the
 * host, run in the guest (harness/guest/tests/15-event-perf-bpf.sh).
 *
 *	marker-perf perf GROUP/EVENT FIELD N FILE
 *	marker-perf bpf GROUP/EVENT FIELD N FILE
 *
 * Opens the tracepoint event GROUP/EVENT for this process, then opens
 * FILE N times (each open fires the event once, with FIELD our pid: the
 * subsys_open marker of marker-example).
 *
 * perf: counts the hits (PERF_EVENT_IOC_ENABLE, read()), and samples every
 * hit (PERF_SAMPLE_RAW into the mmap ring): N of each, FIELD == getpid()
 * in every sample.
 *
 * bpf: attaches (PERF_EVENT_IOC_SET_BPF) a BPF_PROG_TYPE_TRACEPOINT
 * program, written as raw instructions, that reads FIELD (a 4-byte int)
 * from the record and adds 1 and the field to an array map: N hits, and
 * N * getpid() as the sum.
 *
 * Prints one result line and exits 0 when everything matched.
 *
 *	marker-perf bench GROUP/EVENT FIELD ROW
 *	marker-perf bench-raw TRACEPOINT ROW
 *
 * For make bench (harness/guest/bench.sh): attaches the program of "bpf"
 * to the event, or a BPF_PROG_TYPE_RAW_TRACEPOINT program that does the
 * same with the tracepoint's first argument (BPF_RAW_TRACEPOINT_OPEN),
 * runs marker-bench's row ROW (writing it to the module's "run"
 * parameter) while it is attached, and detaches it. Exits 0 when the
 * program ran.
 *
 *	marker-perf raw NAME N FILE [CMD]
 *	marker-perf raw-value NAME N FILE VALUE [CMD]
 *	marker-perf raw-refused NAME ARG ERRNO
 *
 * A BPF_PROG_TYPE_RAW_TRACEPOINT program attached by marker name or SDT
 * key (BPF_RAW_TRACEPOINT_OPEN), with exact counts: see do_raw() and
 * do_raw_refused().
 *
 *	marker-perf text-poke ENABLE [SITE]
 *
 * The side-band records perf gets when a thunk is made: see do_text_poke().
 *
 *	marker-perf refused ID
 *
 * For an unprivileged user (setpriv in the guest): opening the tracepoint
 * event of id ID (read by root: tracefs is root's) with perf_event_open()
 * must fail with EACCES (perf_event_paranoid 2: no kernel events without
 * CAP_PERFMON), and loading a BPF tracepoint program with EPERM (no
 * CAP_BPF, and unprivileged bpf() is off). Prints each errno; exits 0 when
 * both are refused so.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define EVENTS "/sys/kernel/tracing/events/"
#define RING_PAGES 64

static void die(const char *what)
{
	fprintf(stderr, "marker-perf: %s: %s\n", what, strerror(errno));
	exit(2);
}

static long read_long(const char *path)
{
	char buf[64];
	FILE *f = fopen(path, "r");

	if (!f || !fgets(buf, sizeof(buf), f))
		die(path);
	fclose(f);
	return strtol(buf, NULL, 10);
}

/* The offset of FIELD in the event's format; its size must be 4. */
static int field_offset(const char *event, const char *field)
{
	char path[256], line[256], want[80];
	int off = -1, size = 0;
	FILE *f;

	snprintf(path, sizeof(path), EVENTS "%s/format", event);
	snprintf(want, sizeof(want), " %s;", field);
	f = fopen(path, "r");
	if (!f)
		die(path);
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, want), *o;

		if (!p || !strstr(line, "field:"))
			continue;
		o = strstr(p, "offset:");
		if (o && sscanf(o, "offset:%d;\tsize:%d;", &off, &size) == 2)
			break;
	}
	fclose(f);
	if (off < 0 || size != 4) {
		fprintf(stderr, "marker-perf: no 4-byte field %s in %s\n", field, path);
		exit(2);
	}
	return off;
}

static int open_event(const char *event, int sample)
{
	struct perf_event_attr attr;
	char path[256];
	int fd;

	snprintf(path, sizeof(path), EVENTS "%s/id", event);
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = read_long(path);
	attr.disabled = 1;
	attr.sample_period = 1;
	if (sample) {
		attr.sample_type = PERF_SAMPLE_RAW;
		attr.wakeup_events = 1;
	}
	fd = syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0)
		die("perf_event_open");
	return fd;
}

/* Open @file @n times; with @rd, read a byte each time. */
static void workload_read(const char *file, int n, int rd)
{
	char c;
	int i, fd;

	for (i = 0; i < n; i++) {
		fd = open(file, O_RDONLY);
		if (fd < 0)
			die(file);
		if (rd && read(fd, &c, 1) < 0)
			die(file);
		close(fd);
	}
}

static void workload(const char *file, int n)
{
	workload_read(file, n, 0);
}

/* Walk the samples in the ring: count them, and those with FIELD == pid. */
static void samples(void *ring, int off, int *nr, int *good)
{
	struct perf_event_mmap_page *pg = ring;
	char *data = (char *)ring + pg->data_offset;
	uint64_t head = pg->data_head, tail = pg->data_tail;
	uint64_t size = pg->data_size;

	__sync_synchronize();
	while (tail < head) {
		struct perf_event_header *h = (void *)(data + tail % size);

		if (h->type == PERF_RECORD_SAMPLE) {
			/* u32 raw size, then the record (not wrapped: small). */
			char *raw = (char *)h + sizeof(*h) + sizeof(uint32_t);
			int32_t v;

			memcpy(&v, raw + off, sizeof(v));
			(*nr)++;
			if (v == getpid())
				(*good)++;
		}
		tail += h->size;
	}
}

static int do_perf(const char *event, int off, int n, const char *file)
{
	int cfd, sfd, nr = 0, good = 0;
	uint64_t count = 0;
	void *ring;

	cfd = open_event(event, 0);
	sfd = open_event(event, 1);
	ring = mmap(NULL, (RING_PAGES + 1) * getpagesize(), PROT_READ | PROT_WRITE,
		    MAP_SHARED, sfd, 0);
	if (ring == MAP_FAILED)
		die("mmap");
	if (ioctl(cfd, PERF_EVENT_IOC_ENABLE, 0) || ioctl(sfd, PERF_EVENT_IOC_ENABLE, 0))
		die("PERF_EVENT_IOC_ENABLE");
	workload(file, n);
	ioctl(cfd, PERF_EVENT_IOC_DISABLE, 0);
	ioctl(sfd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(cfd, &count, sizeof(count)) != sizeof(count))
		die("read count");
	samples(ring, off, &nr, &good);
	printf("perf %s: count %llu samples %d with pid %d\n", event,
	       (unsigned long long)count, nr, good);
	return count == (uint64_t)n && nr == n && good == n ? 0 : 1;
}

static int bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

#define INSN(c, d, s, o, i) ((struct bpf_insn){ .code = (c), .dst_reg = (d), \
	.src_reg = (s), .off = (o), .imm = (i) })

/*
 * A BPF program of @type that counts its hits and sums a 4-byte field at
 * @off of its context (a tracepoint record), or with @raw the argument at
 * @off of a raw tracepoint (its context is the u64 arguments), into an
 * array map; returns the program, and the map in @mapfd.
 */
static int load_prog(int type, int off, int raw, int *mapfd)
{
	union bpf_attr attr;
	uint32_t key = 0;
	char log[4096] = "";
	int map, prog;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = sizeof(key);
	attr.max_entries = 1;
	attr.value_size = 2 * sizeof(uint64_t);
	map = bpf(BPF_MAP_CREATE, &attr);
	if (map < 0)
		die("BPF_MAP_CREATE");

	struct bpf_insn insns[] = {
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, 6, 1, 0, 0),	/* r6 = ctx */
		INSN(BPF_ST | BPF_MEM | BPF_W, 10, 0, -4, 0),	/* key = 0 */
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, 2, 10, 0, 0),
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, -4),	/* r2 = &key */
		INSN(BPF_LD | BPF_DW | BPF_IMM, 1, BPF_PSEUDO_MAP_FD, 0, map),
		INSN(0, 0, 0, 0, 0),
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem),
		INSN(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 4, 0),	/* NULL: out */
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 1, 0, 0, 1),
		INSN(BPF_STX | BPF_ATOMIC | BPF_DW, 0, 1, 0, BPF_ADD),	/* hits++ */
		raw ? INSN(BPF_LDX | BPF_MEM | BPF_DW, 1, 6, off, 0)	/* an arg */
		    : INSN(BPF_LDX | BPF_MEM | BPF_W, 1, 6, off, 0),	/* the field */
		INSN(BPF_STX | BPF_ATOMIC | BPF_DW, 0, 1, 8, BPF_ADD),	/* sum += */
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0),	/* out: 0 */
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	memset(&attr, 0, sizeof(attr));
	attr.prog_type = type;
	attr.insns = (uintptr_t)insns;
	attr.insn_cnt = sizeof(insns) / sizeof(insns[0]);
	attr.license = (uintptr_t)"GPL";
	attr.log_buf = (uintptr_t)log;
	attr.log_size = sizeof(log);
	attr.log_level = 1;
	prog = bpf(BPF_PROG_LOAD, &attr);
	if (prog < 0) {
		fprintf(stderr, "%s\n", log);
		die("BPF_PROG_LOAD");
	}
	*mapfd = map;
	return prog;
}

/* The hits and the field sum of a program of load_prog(). */
static void prog_counts(int map, uint64_t *val)
{
	union bpf_attr attr;
	uint32_t key = 0;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = map;
	attr.key = (uintptr_t)&key;
	attr.value = (uintptr_t)val;
	if (bpf(BPF_MAP_LOOKUP_ELEM, &attr))
		die("BPF_MAP_LOOKUP_ELEM");
}

static int do_bpf(const char *event, int off, int n, const char *file)
{
	uint64_t val[2] = { 0, 0 };
	int map, prog, fd;

	prog = load_prog(BPF_PROG_TYPE_TRACEPOINT, off, 0, &map);
	fd = open_event(event, 0);
	if (ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog))
		die("PERF_EVENT_IOC_SET_BPF");
	if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
		die("PERF_EVENT_IOC_ENABLE");
	workload(file, n);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	prog_counts(map, val);
	printf("bpf %s: hits %llu field sum %llu (pid %d)\n", event,
	       (unsigned long long)val[0], (unsigned long long)val[1], getpid());
	return val[0] == (uint64_t)n && val[1] == (uint64_t)n * getpid() ? 0 : 1;
}

/* Attach raw program @prog to @name; the link, or -1 with errno. */
static int raw_open(const char *name, int prog)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.raw_tracepoint.name = (uintptr_t)name;
	attr.raw_tracepoint.prog_fd = prog;
	return bpf(BPF_RAW_TRACEPOINT_OPEN, &attr);
}

/*
 * raw: the program of "bpf" as a raw tracepoint program attached by name
 * (a marker name or an SDT key), summing its first argument: N opens
 * (and reads) of FILE give N hits and N * pid. With CMD, it runs CMD
 * (system()) with the program attached, then the N opens again: 2N.
 * raw-value: the first argument is VALUE at each hit, not the pid.
 */
static int do_raw(const char *name, int n, const char *file, const char *cmd,
		  long long want)
{
	uint64_t val[2] = { 0, 0 };
	int map, prog, fd, rounds = cmd ? 2 : 1;

	prog = load_prog(BPF_PROG_TYPE_RAW_TRACEPOINT, 0, 1, &map);
	fd = raw_open(name, prog);
	if (fd < 0)
		die("BPF_RAW_TRACEPOINT_OPEN");
	workload_read(file, n, 1);
	if (cmd && system(cmd)) {
		fprintf(stderr, "marker-perf: %s failed\n", cmd);
		return 1;
	}
	if (cmd)
		workload_read(file, n, 1);
	prog_counts(map, val);
	close(fd);
	printf("raw %s: hits %llu arg0 sum %lld (want %lld each, %d rounds of %d)\n",
	       name, (unsigned long long)val[0], (long long)val[1], want, rounds, n);
	return val[0] == (uint64_t)rounds * n &&
	       val[1] == (uint64_t)rounds * n * (uint64_t)want ? 0 : 1;
}

/*
 * raw-refused: a raw program that reads its argument NARG (counting from
 * 0) is refused at attach to @name with errno @want (its name, "EINVAL").
 */
static int do_raw_refused(const char *name, int narg, const char *want)
{
	int map, prog, fd, err;

	prog = load_prog(BPF_PROG_TYPE_RAW_TRACEPOINT, 8 * narg, 1, &map);
	fd = raw_open(name, prog);
	err = fd < 0 ? errno : 0;
	printf("raw %s, reading argument %d: %s\n", name, narg,
	       err ? strerrorname_np(err) : "attached");
	if (fd >= 0)
		close(fd);
	return err && !strcmp(strerrorname_np(err), want) ? 0 : 1;
}

/* Copy @len bytes at @off of @ring's data area, which wraps, to @dst. */
static void ring_copy(struct perf_event_mmap_page *pg, uint64_t off, void *dst,
		      size_t len)
{
	char *data = (char *)pg + pg->data_offset;
	size_t i;

	for (i = 0; i < len; i++)
		((char *)dst)[i] = data[(off + i) % pg->data_size];
}

/*
 * text-poke: with a dummy event on every CPU that asks for PERF_RECORD_KSYMBOL
 * and PERF_RECORD_TEXT_POKE, write 1 then 0 to ENABLE (an SDT event's
 * enable file, whose site a thunk arms): perf gets the thunk's name and a
 * text poke of its bytes at its address (nothing before: old_len 0, new_len
 * its size). With SITE, the site's address, also the CALL written over the
 * site's NOP: a 5-byte text poke there whose new bytes start with 0xe8
 * (x86_64).
 */
static int do_text_poke(const char *enable, uint64_t site)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF), cpu;
	struct perf_event_attr attr;
	struct perf_event_mmap_page *pg;
	uint64_t thunk = 0, thunk_len = 0, head, off;
	int nthunk = 0, thunk_poke = 0, site_poke = 0, fd, efd, i;
	size_t ring_size = 17 * getpagesize();
	void *rings[1024];
	int nrings = 0;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.ksymbol = 1;
	attr.text_poke = 1;
	for (cpu = 0; cpu < ncpu && nrings < 1024; cpu++) {
		fd = syscall(__NR_perf_event_open, &attr, -1, (int)cpu, -1, 0);
		if (fd < 0 && errno == ENODEV)
			continue;	/* offline */
		if (fd < 0)
			die("perf_event_open (dummy, text_poke)");
		rings[nrings] = mmap(NULL, ring_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (rings[nrings] == MAP_FAILED)
			die("mmap");
		nrings++;
	}
	for (i = 0; i < 2; i++) {
		efd = open(enable, O_WRONLY);
		if (efd < 0 || write(efd, i ? "0" : "1", 1) != 1)
			die(enable);
		close(efd);
	}
	/* The thunk's name first, wherever it came (any CPU). */
	for (i = 0; i < nrings; i++) {
		pg = rings[i];
		head = pg->data_head;
		__sync_synchronize();
		for (off = pg->data_tail; off < head;) {
			struct { struct perf_event_header h; uint64_t addr; uint32_t len;
				 uint16_t type, flags; char name[64]; } k;

			ring_copy(pg, off, &k, sizeof(k.h));
			if (k.h.type == PERF_RECORD_KSYMBOL) {
				ring_copy(pg, off, &k, k.h.size < sizeof(k) ? k.h.size : sizeof(k));
				k.name[sizeof(k.name) - 1] = 0;
				if (!strncmp(k.name, "sdt_thunk_", 10) &&
				    !(k.flags & PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER)) {
					printf("ksymbol %s at %#llx, %u bytes\n", k.name,
					       (unsigned long long)k.addr, k.len);
					thunk = k.addr;
					thunk_len = k.len;
					nthunk++;
				}
			}
			off += k.h.size;
		}
	}
	for (i = 0; i < nrings; i++) {
		pg = rings[i];
		head = pg->data_head;
		for (off = pg->data_tail; off < head;) {
			struct { struct perf_event_header h; uint64_t addr;
				 uint16_t old_len, new_len; unsigned char bytes[8]; } t;

			ring_copy(pg, off, &t, sizeof(t.h));
			if (t.h.type == PERF_RECORD_TEXT_POKE) {
				ring_copy(pg, off, &t, sizeof(t));
				if (t.addr == thunk && !t.old_len && t.new_len == thunk_len)
					thunk_poke++;
				if (site && t.addr == site && t.old_len == 5 &&
				    t.new_len == 5 && t.bytes[t.old_len] == 0xe8)
					site_poke++;
				printf("text_poke at %#llx: old_len %u new_len %u\n",
				       (unsigned long long)t.addr, t.old_len, t.new_len);
			}
			off += t.h.size;
		}
	}
	printf("text-poke: %d thunk(s) named, %d text poke(s) of a thunk's bytes, "
	       "%d of a CALL over a site\n", nthunk, thunk_poke, site_poke);
	return nthunk == 1 && thunk_poke == 1 && (!site || site_poke >= 1) ? 0 : 1;
}

/* Run marker-bench's row @row: it prints its figure in the kernel log. */
static void bench_row(const char *row)
{
	const char *path = "/sys/module/marker_bench/parameters/run";
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, row, strlen(row)) != (ssize_t)strlen(row))
		die(path);
	close(fd);
}

static int do_bench(const char *event, const char *field, const char *row)
{
	uint64_t val[2] = { 0, 0 };
	int map, prog, fd;

	if (field) {
		prog = load_prog(BPF_PROG_TYPE_TRACEPOINT, field_offset(event, field), 0, &map);
		fd = open_event(event, 0);
		if (ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog))
			die("PERF_EVENT_IOC_SET_BPF");
		if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
			die("PERF_EVENT_IOC_ENABLE");
	} else {
		prog = load_prog(BPF_PROG_TYPE_RAW_TRACEPOINT, 0, 1, &map);
		fd = raw_open(event, prog);
		if (fd < 0)
			die("BPF_RAW_TRACEPOINT_OPEN");
	}
	bench_row(row);
	close(fd);
	prog_counts(map, val);
	printf("bench %s, BPF on %s: hits %llu\n", row, event, (unsigned long long)val[0]);
	return val[0] ? 0 : 1;
}

static int refused(const char *what, int ret, int want)
{
	int err = ret < 0 ? errno : 0;

	printf("%s: %s (%s)\n", what, err ? strerrorname_np(err) : "allowed",
	       err ? strerror(err) : "no error");
	if (ret >= 0)
		close(ret);
	return err == want ? 0 : 1;
}

static int do_refused(long id)
{
	struct perf_event_attr pattr;
	union bpf_attr attr;
	struct bpf_insn insns[] = {
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	int bad = 0;

	memset(&pattr, 0, sizeof(pattr));
	pattr.size = sizeof(pattr);
	pattr.type = PERF_TYPE_TRACEPOINT;
	pattr.config = id;
	pattr.disabled = 1;
	bad |= refused("perf_event_open", syscall(__NR_perf_event_open, &pattr,
						  0, -1, -1, 0), EACCES);

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_TRACEPOINT;
	attr.insns = (uintptr_t)insns;
	attr.insn_cnt = sizeof(insns) / sizeof(insns[0]);
	attr.license = (uintptr_t)"GPL";
	bad |= refused("BPF_PROG_LOAD", bpf(BPF_PROG_LOAD, &attr), EPERM);
	return bad;
}

int main(int argc, char **argv)
{
	int off, n;

	if (argc == 3 && !strcmp(argv[1], "refused"))
		return do_refused(strtol(argv[2], NULL, 10));
	if (argc == 5 && !strcmp(argv[1], "bench"))
		return do_bench(argv[2], argv[3], argv[4]);
	if (argc == 4 && !strcmp(argv[1], "bench-raw"))
		return do_bench(argv[2], NULL, argv[3]);
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "text-poke"))
		return do_text_poke(argv[2], argc == 4 ? strtoull(argv[3], NULL, 16) : 0);
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "raw"))
		return do_raw(argv[2], atoi(argv[3]), argv[4], argc == 6 ? argv[5] : NULL,
			      getpid());
	if ((argc == 6 || argc == 7) && !strcmp(argv[1], "raw-value"))
		return do_raw(argv[2], atoi(argv[3]), argv[4], argc == 7 ? argv[6] : NULL,
			      strtoll(argv[5], NULL, 0));
	if (argc == 5 && !strcmp(argv[1], "raw-refused"))
		return do_raw_refused(argv[2], atoi(argv[3]), argv[4]);

	if (argc != 6) {
		fprintf(stderr, "usage: marker-perf perf|bpf GROUP/EVENT FIELD N FILE\n"
			"       marker-perf bench GROUP/EVENT FIELD ROW\n"
			"       marker-perf bench-raw TRACEPOINT ROW\n"
			"       marker-perf raw NAME N FILE [CMD]\n"
			"       marker-perf raw-value NAME N FILE VALUE [CMD]\n"
			"       marker-perf raw-refused NAME ARG ERRNO\n"
			"       marker-perf text-poke ENABLE [SITE]\n"
			"       marker-perf refused ID\n");
		return 2;
	}
	off = field_offset(argv[2], argv[3]);
	n = atoi(argv[4]);
	if (!strcmp(argv[1], "perf"))
		return do_perf(argv[2], off, n, argv[5]);
	if (!strcmp(argv[1], "bpf"))
		return do_bpf(argv[2], off, n, argv[5]);
	fprintf(stderr, "marker-perf: perf or bpf, not %s\n", argv[1]);
	return 2;
}
