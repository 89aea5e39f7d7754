// SPDX-License-Identifier: GPL-2.0
/*
 * module-churn: load and unload a module with marker sites COUNT times,
 * with finit_module() and delete_module() (no fork, no exec), and check
 * the registry after each step.
 *
 *	module-churn MODULE.ko MODNAME PREFIX COUNT [fault|nth [STRIDE]]
 *
 * MODNAME is the module's name, PREFIX that of its marker names. Probes
 * come from the markers control file ("enable name PREFIX_*" and
 * "enable name PREFIX:*"), alternating: on odd cycles they are enabled once
 * the module is live (armed at once) and stay while it goes (pending); on
 * even cycles those pending probes are armed as the module comes, and
 * disabled once it is gone.
 *
 * With "fault", allocations of the module loads and of the control writes
 * may fail (this process's /proc/self/make-it-fail is set around them;
 * failslab and fail_page_alloc are set up by the caller): each must then
 * succeed or fail with an error, and the registry must still agree with
 * the text and kprobes (/sys/kernel/debug/markers_stress/check reads 0).
 *
 * With "nth", each cycle fails one allocation of the load, the N-th from
 * the end (N = 1, 1 + STRIDE, ... up to COUNT; STRIDE 1 unless given),
 * through /proc/self/fail-nth: the last COUNT allocations of a load,
 * where the module's sites are added and their trace events made, each
 * failed once (or every STRIDE-th). Only the allocations that fault
 * injection may fail count: with a stack filter (require-start and
 * require-end of failslab and fail_page_alloc), those made under the
 * code it names. A load that fails must fail with
 * an error; a load that succeeds must leave the names as a load without
 * a failure does: as many trace events (lines of PREFIX in
 * available_events), each with its directory in tracefs and as many
 * fields in its format, or, when one is
 * missing, "enable" succeeds and enables as many (in set_event). The number of loads that succeeded
 * with a failure injected is printed as "swallowed".
 *
 * Slab usage (the bytes of live objects of every cache, after shrinking
 * every cache, which also empties KASAN's quarantine; the debugging tools'
 * own caches left out) is printed before and after, and the caches that
 * grew by more than 16 kB are named. Exit status 0 when every check held.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define CONTROL	"/sys/kernel/debug/markers/control"
#define CHECK	"/sys/kernel/debug/markers_stress/check"

static int faulty, nth;
static int fail_fd = -1;	/* /proc/self/make-it-fail, opened once */

static void make_it_fail(int on)
{
	int tries;

	if (!faulty)
		return;
	/* Turning it off may itself fail for memory: try again. */
	for (tries = 0; write(fail_fd, on ? "1" : "0", 1) != 1; tries++) {
		if (errno != ENOMEM || tries > 1000) {
			perror("make-it-fail");
			exit(1);
		}
	}
}

/* Write @cmd to the control file: 0, or the errno. */
static int control(const char *cmd)
{
	int fd = open(CONTROL, O_WRONLY), err = 0;

	if (fd < 0) {
		perror(CONTROL);
		exit(1);
	}
	make_it_fail(1);
	if (write(fd, cmd, strlen(cmd)) < 0)
		err = errno;
	make_it_fail(0);
	close(fd);
	return err;
}

/*
 * An errno that an injected allocation failure may give a module load.
 * Besides -ENOMEM: the load of a signed module (MODULE_SIG) fails with
 * -EKEYREJECTED when an allocation of the signature check fails inside
 * verify_signature(), since pkcs7_validate_trust_one() turns each of its
 * errors but -ENOMEM into -EKEYREJECTED (the crypto API's lookup of the
 * algorithm returns others). Seen in CI: "cycle 6: load: Key was rejected
 * by service" in guest/42-fault-injection.
 */
static int load_injected(int err)
{
	return err == ENOMEM || err == EKEYREJECTED;
}

/* The number of inconsistent sites, from the stress module; 0 without it. */
static int inconsistent(void)
{
	char buf[32] = "";
	int fd = open(CHECK, O_RDONLY);

	if (fd < 0)
		return 0;
	if (read(fd, buf, sizeof(buf) - 1) < 0)
		buf[0] = '\0';
	close(fd);
	return atoi(buf);
}

/* Write @n to /proc/self/fail-nth (0: no failure to inject). */
static void fail_nth(int fd, unsigned long n)
{
	char buf[32];
	int len = snprintf(buf, sizeof(buf), "%lu", n);

	if (pwrite(fd, buf, len, 0) != len) {
		perror("fail-nth");
		exit(1);
	}
}

/* What is left of /proc/self/fail-nth's count: 0 once it failed one. */
static unsigned long fail_nth_left(int fd)
{
	char buf[32] = "";

	if (pread(fd, buf, sizeof(buf) - 1, 0) < 0) {
		perror("fail-nth");
		exit(1);
	}
	return strtoul(buf, NULL, 0);
}

/* Lines of @file (of tracefs) that name an event of @prefix. */
static int events_in(const char *file, const char *prefix)
{
	char path[128], line[256];
	FILE *f;
	int n = 0;

	snprintf(path, sizeof(path), "/sys/kernel/tracing/%s", file);
	f = fopen(path, "r");
	if (!f) {
		perror(path);
		exit(1);
	}
	while (fgets(line, sizeof(line), f))
		n += strstr(line, prefix) != NULL;
	fclose(f);
	return n;
}

#define MAX_EVENTS	64

/* The events of a load without failure, and the fields of each. */
static struct {
	char name[256];
	int fields;
} ref_events[MAX_EVENTS];
static int nref_events;

/* The "field:" lines of the format of @event ("system/name"), or -1. */
static int event_fields(const char *event)
{
	char path[384], line[512];
	FILE *f;
	int n = 0;

	snprintf(path, sizeof(path), "/sys/kernel/tracing/events/%s/format", event);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n += strncmp(line, "\tfield:", 7) == 0;
	fclose(f);
	return n;
}

/*
 * The events of @prefix in available_events that are not whole, each
 * named on stderr: without their directory in tracefs (registered with
 * ftrace, but nobody can enable them there or read them), or with fewer
 * fields in their format than a load without failure gave them (records
 * that perf or bpftrace would read with another layout). With @record,
 * a load without failure: the fields of each are what the next calls
 * compare with.
 */
static int events_not_whole(const char *prefix, int record)
{
	char line[256], path[384], *colon;
	struct stat st;
	FILE *f = fopen("/sys/kernel/tracing/available_events", "r");
	int i, fields, n = 0;

	if (!f) {
		perror("available_events");
		exit(1);
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		colon = strchr(line, ':');
		if (!strstr(line, prefix) || !colon)
			continue;
		*colon = '/';
		snprintf(path, sizeof(path), "/sys/kernel/tracing/events/%s", line);
		if (stat(path, &st)) {
			fprintf(stderr, "event %s has no directory in tracefs\n", line);
			n++;
			continue;
		}
		fields = event_fields(line);
		if (record) {
			if (nref_events == MAX_EVENTS) {
				fprintf(stderr, "more than %d events of %s\n", MAX_EVENTS, prefix);
				exit(1);
			}
			snprintf(ref_events[nref_events].name, sizeof(ref_events[0].name),
				 "%s", line);
			ref_events[nref_events++].fields = fields;
			continue;
		}
		for (i = 0; i < nref_events; i++) {
			if (strcmp(ref_events[i].name, line))
				continue;
			if (fields != ref_events[i].fields) {
				fprintf(stderr, "event %s has %d fields in its format, %d without failure\n",
					line, fields, ref_events[i].fields);
				n++;
			}
			break;
		}
	}
	fclose(f);
	return n;
}

/*
 * The "nth" mode (see the top): @count / @stride loads of @fd, the one of
 * cycle i with the i-th allocation from the end failed. The events of a load are checked
 * in available_events, without enabling them: an event never enabled
 * goes with its sites, so that the next load makes it again. Only when
 * one is missing there, "enable" must make it (and so keep it: a used
 * event stays) and enable them all. Returns the number of bad cycles.
 */
static unsigned long churn_nth(int fd, const char *modname, const char *prefix,
			       unsigned long count, unsigned long stride,
			       const char *enable, const char *disable)
{
	unsigned long i, n, total, bad = 0, failed = 0, swallowed = 0, made = 0;
	unsigned long cycles = 0;
	int nfd = open("/proc/self/fail-nth", O_RDWR);
	int err, want, got;

	if (nfd < 0) {
		perror("/proc/self/fail-nth");
		exit(1);
	}
	/* A load without failure: how many allocations, how many events. */
	fail_nth(nfd, 1000000);
	err = syscall(SYS_finit_module, fd, "", 0) ? errno : 0;
	total = 1000000 - fail_nth_left(nfd);
	fail_nth(nfd, 0);
	if (err) {
		fprintf(stderr, "load without failure: %s\n", strerror(err));
		exit(1);
	}
	want = events_in("available_events", prefix);
	if (events_not_whole(prefix, 1)) {
		fprintf(stderr, "load without failure: an event not whole\n");
		exit(1);
	}
	syscall(SYS_delete_module, modname, O_NONBLOCK);
	for (i = 1; i <= count && i < total; i += stride) {
		n = total + 1 - i;
		cycles++;
		fail_nth(nfd, n);
		err = syscall(SYS_finit_module, fd, "", 0) ? errno : 0;
		got = fail_nth_left(nfd) == 0;
		fail_nth(nfd, 0);
		bad += inconsistent();
		if (err) {
			failed++;
			if (!got || !load_injected(err)) {
				fprintf(stderr, "allocation %lu of %lu failed: load: %s\n",
					n, total, strerror(err));
				bad++;
			}
			continue;
		}
		swallowed += got;
		if (events_not_whole(prefix, 0)) {
			fprintf(stderr, "allocation %lu of %lu failed: an event not whole\n",
				n, total);
			bad++;
		}
		if (events_in("available_events", prefix) != want) {
			made++;
			err = control(enable);
			got = events_in("set_event", prefix);
			if (err || got != want) {
				fprintf(stderr, "allocation %lu of %lu failed: enable: %s, %d events enabled of %d\n",
					n, total, strerror(err), got, want);
				bad++;
			}
			control(disable);
		}
		bad += inconsistent();
		if (syscall(SYS_delete_module, modname, O_NONBLOCK)) {
			fprintf(stderr, "allocation %lu: unload: %s\n", n, strerror(errno));
			bad++;
		}
	}
	close(nfd);
	printf("nth allocations %lu failed %lu of the last, every %lu: failed-loads %lu swallowed %lu events %d made-at-enable %lu bad %lu\n",
	       total, cycles, stride, failed, swallowed, want, made, bad);
	return bad;
}

#define MAX_CACHES	1024

/* Bytes in objects of each cache, in glob order; their sum. */
static long cache_bytes[MAX_CACHES];

static long read_long(const char *dir, const char *file)
{
	char path[512], buf[64] = "";
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	if (read(fd, buf, sizeof(buf) - 1) < 0)
		buf[0] = '\0';
	close(fd);
	return atol(buf);
}

/*
 * The debugging tools' own caches: debugobjects keeps a pool that grows
 * with the objects it tracks and does not shrink, and kmemleak tracks
 * every allocation. What they hold is not what the churn kept.
 */
static int debug_cache(const char *path)
{
	return strstr(path, "/debug_objects_cache") || strstr(path, "/kmemleak_object");
}

/*
 * Slab memory in objects, in kB, once every cache is shrunk: the bytes of
 * live objects of every cache (each once: aliases of merged caches are
 * symlinks), the debugging tools' caches and the reclaimable ones
 * (dentries, inodes: freed under memory pressure) left out. Objects, not pages
 * (/proc/meminfo SUnreclaim): pages also count how the objects happen to
 * be spread over them. The bytes of each cache go in @bytes; with
 * @before, say which caches grew by more than 16 kB since.
 */
static long slab_kb_once(long *bytes, const long *before)
{
	char path[512];
	struct stat st;
	long sum = 0;
	glob_t g;
	size_t i;
	int fd;

	/*
	 * Drop the dentry and inode caches, and give the RCU callbacks that
	 * free what an unloaded module leaves behind a second to run.
	 */
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	if (fd >= 0) {
		if (write(fd, "3", 1) < 0)
			perror("drop_caches");
		close(fd);
	}
	sleep(1);
	/* No cache to read is no measure, not an empty slab: fail. */
	if (glob("/sys/kernel/slab/*", 0, NULL, &g) || !g.gl_pathc ||
	    g.gl_pathc > MAX_CACHES) {
		fprintf(stderr, "/sys/kernel/slab: no cache, or more than %d: slab usage not measured\n",
			MAX_CACHES);
		exit(1);
	}
	for (i = 0; i < g.gl_pathc; i++) {
		snprintf(path, sizeof(path), "%s/shrink", g.gl_pathv[i]);
		fd = open(path, O_WRONLY);
		if (fd >= 0) {
			if (write(fd, "1", 1) < 0)
				perror(path);
			close(fd);
		}
		bytes[i] = read_long(g.gl_pathv[i], "objects") *
			   read_long(g.gl_pathv[i], "object_size");
		if (before && bytes[i] - before[i] > 16384)
			fprintf(stderr, "slab: %s grew by %ld bytes\n",
				g.gl_pathv[i], bytes[i] - before[i]);
		if (!lstat(g.gl_pathv[i], &st) && !S_ISLNK(st.st_mode) &&
		    !debug_cache(g.gl_pathv[i]) &&
		    !read_long(g.gl_pathv[i], "reclaim_account"))
			sum += bytes[i];
	}
	globfree(&g);
	return sum / 1024;
}

/*
 * slab_kb_once() until it settles: what an unloaded module leaves to RCU
 * callbacks (dentries, inodes, tracefs directories) can take seconds to
 * be freed under TCG and KASAN. At most ten tries, a second apart.
 */
static long slab_kb(long *bytes, const long *before)
{
	long kb = slab_kb_once(bytes, NULL), prev;
	int i;

	for (i = 0; i < 10; i++) {
		prev = kb;
		kb = slab_kb_once(bytes, NULL);
		if (kb > prev - 4)
			break;
	}
	return before ? slab_kb_once(bytes, before) : kb;
}

int main(int argc, char **argv)
{
	unsigned long count, i, loads = 0, failed_loads = 0, failed_writes = 0;
	unsigned long bad = 0;
	char enable[128], disable[128];
	long before, after;
	int fd, err;

	if (argc < 5) {
		fprintf(stderr, "usage: module-churn MODULE.ko MODNAME PREFIX COUNT [fault|nth [STRIDE]]\n");
		return 2;
	}
	count = strtoul(argv[4], NULL, 0);
	faulty = argc > 5 && !strcmp(argv[5], "fault");
	nth = argc > 5 && !strcmp(argv[5], "nth");
	snprintf(enable, sizeof(enable), "enable name %s_*; enable name %s:*",
		 argv[3], argv[3]);
	snprintf(disable, sizeof(disable), "disable name %s_*; disable name %s:*",
		 argv[3], argv[3]);
	if (faulty) {
		fail_fd = open("/proc/self/make-it-fail", O_WRONLY);
		if (fail_fd < 0) {
			perror("/proc/self/make-it-fail");
			return 1;
		}
	}
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	if (nth) {
		unsigned long stride = argc > 6 ? strtoul(argv[6], NULL, 0) : 1;

		if (!stride) {
			fprintf(stderr, "module-churn: STRIDE must be at least 1\n");
			return 2;
		}
		return churn_nth(fd, argv[2], argv[3], count, stride, enable,
				 disable) != 0;
	}
	before = slab_kb(cache_bytes, NULL);
	for (i = 0; i < count; i++) {
		make_it_fail(1);
		err = syscall(SYS_finit_module, fd, "", 0) ? errno : 0;
		make_it_fail(0);
		if (err) {
			failed_loads++;
			if (!faulty || !load_injected(err)) {
				fprintf(stderr, "cycle %lu: load: %s\n", i, strerror(err));
				bad++;
			}
		} else {
			loads++;
		}
		bad += inconsistent();
		if (!err && i % 2 == 1) {
			err = control(enable);
			if (err) {
				failed_writes++;
				if (!faulty || err != ENOMEM) {
					fprintf(stderr, "cycle %lu: enable: %s\n", i, strerror(err));
					bad++;
				}
			}
			bad += inconsistent();
		}
		if (syscall(SYS_delete_module, argv[2], O_NONBLOCK) && errno != ENOENT) {
			fprintf(stderr, "cycle %lu: unload: %s\n", i, strerror(errno));
			bad++;
		}
		bad += inconsistent();
		if (i % 2 == 0) {
			/* Matches nothing when nothing was left pending. */
			err = control(disable);
			if (err && err != ENOENT) {
				failed_writes++;
				if (!faulty || err != ENOMEM) {
					fprintf(stderr, "cycle %lu: disable: %s\n", i, strerror(err));
					bad++;
				}
			}
			bad += inconsistent();
		}
	}
	control(disable);
	{
		static long now[MAX_CACHES];

		after = slab_kb(now, cache_bytes);
	}
	printf("churn cycles %lu loads %lu failed-loads %lu failed-writes %lu bad %lu slab-kb %ld %ld\n",
	       count, loads, failed_loads, failed_writes, bad, before, after);
	return bad != 0;
}
