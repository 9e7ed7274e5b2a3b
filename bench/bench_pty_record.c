/* SPDX-License-Identifier: MIT */
/*
 * bench_pty's part 8 (bench_pty.c lists them all): what session recording
 * (record = DIR) costs the relay.  `cat` of a file through the deployed
 * guard (a configuration and an audit log, as root) with the recording
 * off and on, and through `script -q -c` (util-linux) to /dev/null and to
 * a file - the peer that records too - interleaved run by run so that
 * drift hits all four alike; medians, ratios, and the recording's cost a
 * MiB (the median with it on, less the median with it off, over the
 * MiB shown).
 */
#define _GNU_SOURCE
#include "bench_pty.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void
record_put_file(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");

	if (f == NULL || fputs(text, f) < 0 || fclose(f) != 0 ||
	    chmod(path, mode) != 0)
		exit(1);
}

/* Removes the recordings of the runs so far (and their size, summed). */
static unsigned long long
record_clear(const char *dir)
{
	unsigned long long bytes = 0;
	DIR *d = opendir(dir);
	struct dirent *e;

	if (d == NULL)
		return 0;
	while ((e = readdir(d)) != NULL) {
		char path[600];
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (stat(path, &st) == 0)
			bytes += (unsigned long long)st.st_size;
		(void)unlink(path);
	}
	closedir(d);
	return bytes;
}

void
bench_pty_record(const char *guard, const char *policy, size_t mib, int runs)
{
	char dir[] = "/var/tmp/bench_pty_record.XXXXXX", conf[2][300],
	     key[300], log[300], rec[300], file[300], ts[300], text[5200],
	     abs_policy[4096];
	double off[16], on[16], script[16], script_file[16], mb, m_off, m_on;
	unsigned long long cast_bytes = 0;
	long hwm;
	int i, k;

	if (geteuid() != 0) {
		printf("\nsession recording: skipped (needs root: the "
		       "configuration must be root's)\n");
		return;
	}
	/* on a disk, as a deployment keeps its recordings */
	if (mkdtemp(dir) == NULL || realpath(policy, abs_policy) == NULL)
		exit(1);
	snprintf(key, sizeof key, "%s/audit.key", dir);
	snprintf(log, sizeof log, "%s/audit.log", dir);
	snprintf(rec, sizeof rec, "%s/sessions", dir);
	snprintf(file, sizeof file, "%s/shown.txt", dir);
	snprintf(ts, sizeof ts, "%s/typescript", dir);
	if (mkdir(rec, 0700) != 0)
		exit(1);
	bench_audit_keys(key);
	for (k = 0; k < 2; k++) {
		snprintf(conf[k], sizeof conf[k], "%s/maelys-pty-%d.conf", dir,
			 k);
		snprintf(text, sizeof text,
			 "policy = %s\naudit_log = %s\naudit_key = %s\n"
			 "syslog = off\n%s%s%s",
			 abs_policy, log, key, k == 1 ? "record = " : "",
			 k == 1 ? rec : "", k == 1 ? "\n" : "");
		record_put_file(conf[k], text, 0644);
	}
	bench_pty_make_file(file, mib);
	for (i = 0; i < runs; i++) {
		off[i] = bench_pty_run_guard(guard, policy, conf[0], file, &hwm);
		on[i] = bench_pty_run_guard(guard, policy, conf[1], file, &hwm);
		cast_bytes = record_clear(rec);
		script[i] = bench_pty_run_script(file, NULL);
		script_file[i] = bench_pty_run_script(file, ts);
		(void)unlink(ts);
		(void)unlink(log); /* a new log each run: no reading back */
	}
	mb = (double)(mib << 20) / 1e6;
	m_off = bench_pty_median(off, runs);
	m_on = bench_pty_median(on, runs);
	printf("\nsession recording, cat of %zu MiB, median of %d runs "
	       "(interleaved):\n",
	       mib, runs);
	printf("  script -q -c, to /dev/null   %7.3f s  %8.1f MB/s\n",
	       bench_pty_median(script, runs),
	       mb / bench_pty_median(script, runs));
	printf("  script -q -c, to a file      %7.3f s  %8.1f MB/s\n",
	       bench_pty_median(script_file, runs),
	       mb / bench_pty_median(script_file, runs));
	printf("  maelys-pty, recording off    %7.3f s  %8.1f MB/s\n", m_off,
	       mb / m_off);
	printf("  maelys-pty, recording on     %7.3f s  %8.1f MB/s   %.2f of "
	       "off's, %.2f of script-to-a-file's\n",
	       m_on, mb / m_on, m_off / m_on,
	       bench_pty_median(script_file, runs) / m_on);
	printf("  recording costs %.2f ms a MiB shown (the file: %.2f bytes a "
	       "byte shown, asciicast's JSON framing and escapes)\n",
	       (m_on - m_off) * 1e3 / (double)mib,
	       (double)cast_bytes / (double)(mib << 20));
	(void)unlink(file);
	(void)unlink(key);
	(void)unlink(conf[0]);
	(void)unlink(conf[1]);
	(void)rmdir(rec);
	(void)rmdir(dir);
}
