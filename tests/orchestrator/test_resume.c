/* `drivebench resume` and the bundle (issue 34) against libvirt's test
 * driver with this folder's node.xml and the stand-in oltp: a run
 * SIGKILLed in the second of three repetitions goes on from its
 * checkpoint (the stopped run's oltp processes ended, repetition 1's
 * files byte for byte, three repetitions and one interruption in the
 * summary); the refusals, exact; the bundle of the run verified, and
 * a figure or a raw file changed by hand found. Runs from the
 * repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "bundle/bundle.h"
#include "run/run.h"
#include "plan/plan.h"
#include "util/util.h"
#include "virt/virt.h"
#include "testlib.h"

#define REPS3 "profile = tiny\nrepetitions = 3\n"

/* The run folder of the fixture's run (new string). */
static char *run_dir(orch_fixture *f)
{
    char *d = orch_strfmt("%s/%s", f->results, RUN_ID);
    assert_non_null(d);
    return d;
}

/* "NAME=SHA256\n" of every file of repetition 1 in vm/ and console/, in
 * name order (new string): what must not change. */
static char *rep1_sums(orch_fixture *f)
{
    char *dir = run_dir(f), *out = strdup(""), hex[65], err[256];
    const char *subs[] = { "vm", "console" };
    for (int s = 0; s < 2; s++) {
        char *sub = orch_strfmt("%s/%s", dir, subs[s]);
        struct dirent **names;
        int n = scandir(sub, &names, NULL, alphasort);
        for (int i = 0; i < n; i++) {
            if (strstr(names[i]->d_name, ".r1.")) {
                char *path = orch_strfmt("%s/%s", sub, names[i]->d_name), *more;
                assert_int_equal(orch_sha256_file(path, hex, err, sizeof err), 0);
                more = orch_strfmt("%s%s=%s\n", out, names[i]->d_name, hex);
                free(out);
                out = more;
                free(path);
            }
            free(names[i]);
        }
        if (n >= 0)
            free(names);
        free(sub);
    }
    free(dir);
    return out;
}

/* A JSON value's text at summary key a[i].b (i < 0: a itself). */
static const char *jtext(json_object *o, const char *a, int i, const char *b)
{
    json_object *v;
    if (!json_object_object_get_ex(o, a, &v))
        return "(missing)";
    if (i >= 0 && !(v = json_object_array_get_idx(v, (size_t)i)))
        return "(missing)";
    if (b && !json_object_object_get_ex(v, b, &v))
        return "(missing)";
    return json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
}

/* Whether process pid has a child `sleep` (the stand-in's nap: it wrote
 * its interval lines and sleeps). */
static int sleeping(long pid)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    int found = 0;
    while (d && !found && (e = readdir(d))) {
        char path[300], line[256], comm[64];
        long ppid;
        FILE *f;
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        if (!(f = fopen(path, "r")))
            continue;
        if (fgets(line, sizeof line, f)
            && sscanf(line, "%*d (%63[^)]) %*c %ld", comm, &ppid) == 2)
            found = ppid == pid && strcmp(comm, "sleep") == 0;
        fclose(f);
    }
    if (d)
        closedir(d);
    return found;
}

/* How many of the processes the run folder's clients record names nap. */
static int napping(const char *clients)
{
    FILE *f = fopen(clients, "r");
    char line[512];
    int n = 0;
    while (f && fgets(line, sizeof line, f))
        n += sleeping(strtol(line, NULL, 10));
    if (f)
        fclose(f);
    return n;
}

/* The fixture's plan run in a child process that is SIGKILLed once every
 * VM's oltp of repetition 2 measures (the stand-ins then sleep 60 s):
 * what a `kill -9` of drivebench leaves. The stand-ins let its death
 * signal pass (FAKE_OLTP_OUTLIVE): all three are left for resume to end,
 * however fast or slow they would have stopped on their own. */
static void run_and_kill_in_rep2(orch_fixture *f, orch_plan *p)
{
    char *clients = orch_strfmt("%s/%s/clients", f->results, RUN_ID);
    pid_t child;
    int status;
    fflush(NULL);
    child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        orch_run_opts o;
        orch_fixture_opts(&o, f);
        o.wait_ready = orch_fixture_ready;
        o.out = fopen("/dev/null", "w");
        setenv("FAKE_OLTP_MATCH", ".r2.json", 1);
        setenv("FAKE_OLTP_SLEEP", "60", 1);
        setenv("FAKE_OLTP_OUTLIVE", "1", 1);
        setenv("FAKE_OLTP_CLIENTS", clients, 1);
        _exit(orch_run(p, &o));
    }
    /* all 3 stand-ins of repetition 2's measured phase started */
    for (int i = 0; i < 600 && orch_count_lines(f->log, ".r2.json") < 3; i++)
        usleep(100000);
    assert_int_equal(orch_count_lines(f->log, ".r2.json"), 3);
    /* ... past their re-exec, their death signal cleared (a kill before
     * could end one, or find it inside setpriv: "its program differs"),
     * and asleep, their interval lines written (a kill before would end
     * them by SIGPIPE) */
    for (int i = 0; i < 600 && orch_count_lines(f->log, "outliving ") < 3; i++)
        usleep(100000);
    assert_int_equal(orch_count_lines(f->log, "outliving "), 3);
    for (int i = 0; i < 600 && napping(clients) < 3; i++)
        usleep(100000);
    assert_int_equal(napping(clients), 3);
    kill(child, SIGKILL);
    assert_int_equal(waitpid(child, &status, 0), child);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    free(clients);
}

/* The test on the test driver: SIGKILL in repetition 2 of 3,
 * resume, repetition 1 unchanged, 3 repetitions and 1 interruption. */
static void test_resume_after_sigkill(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = orch_fixture_plan(f, REPS3, "pool = userpool\n");
    orch_run_opts o;
    orch_resume r;
    json_object *s;
    char err[2048], *dir = run_dir(f), *before, *after, *moved, want[512];
    struct stat sb;

    run_and_kill_in_rep2(f, p);
    /* the checkpoint after repetition 1 */
    s = orch_fixture_summary(f);
    assert_string_equal(jtext(s, "status", -1, NULL), "\"partial\"");
    assert_string_equal(jtext(s, "completed_repetitions", -1, NULL), "1");
    json_object_put(s);
    before = rep1_sums(f);
    assert_int_equal(orch_count_lines(f->log, ".r1.json"), 3);

    assert_int_equal(orch_resume_prepare(p, dir, RUN_ID, &r, f->out, err, sizeof err), 0);
    assert_int_equal(r.from_rep, 2);
    /* the stopped run's three stand-ins were ended (they wrote what they
     * measured, "ended": "signal"), its objects died with it */
    snprintf(want, sizeof want, "resume %s: the stopped run left 3 oltp process(es), 0 "
             "domain(s), 0 volume(s), 0 pool(s): removed\n", RUN_ID);
    orch_assert_output(f, want);
    snprintf(want, sizeof want, "resume %s: 1 complete repetition(s) kept; repetition 2 runs "
             "again from its start\n", RUN_ID);
    orch_assert_output(f, want);
    orch_fixture_opts(&o, f);
    o.wait_ready = orch_fixture_ready;
    o.resume = &r;
    assert_int_equal(orch_run(p, &o), ORCH_RUN_OK);
    orch_resume_clear(&r);

    after = rep1_sums(f);
    assert_string_equal(after, before);
    /* 3 measured runs of r1, 3 killed and 3 run again of r2, 3 of r3 */
    assert_int_equal(orch_count_lines(f->log, ".r1.json"), 3);
    assert_int_equal(orch_count_lines(f->log, ".r2.json"), 6);
    assert_int_equal(orch_count_lines(f->log, ".r3.json"), 3);
    /* what the stopped repetition left, kept apart */
    moved = orch_strfmt("%s/interrupted/1/vm/drivebench-%s--second-vm1.r2.json", dir, RUN_ID);
    assert_int_equal(stat(moved, &sb), 0);
    free(moved);

    s = orch_fixture_summary(f);
    assert_string_equal(jtext(s, "status", -1, NULL), "\"complete\"");
    assert_string_equal(jtext(s, "repetitions", -1, NULL), "3");
    assert_string_equal(jtext(s, "completed_repetitions", -1, NULL), "3");
    assert_int_equal(json_object_array_length(json_object_object_get(s, "vms")), 9);
    assert_string_equal(jtext(s, "drives", 1, "measured_repetitions"), "3");
    assert_int_equal(json_object_array_length(json_object_object_get(s, "interruptions")), 1);
    assert_string_equal(jtext(s, "interruptions", 0, "repetition"), "2");
    assert_string_equal(jtext(s, "interruptions", 0, "kept_repetitions"), "1");
    assert_string_equal(jtext(s, "interruptions", 0, "moved_to"), "\"interrupted/1/\"");
    assert_string_equal(jtext(s, "interruptions", 0, "lost"),
                        "\"repetition 2 as far as it ran (9 file(s), moved to interrupted/1/); "
                        "the drive I/O samples of repetition(s) 1-1, which a run holds in "
                        "memory: their VMs have no I/O figures and the drives' cover "
                        "repetitions 2 on\"");
    json_object_put(s);
    /* and the report says so */
    {
        char *html_path = orch_strfmt("%s/report.html", dir), *html = orch_slurp(html_path);
        snprintf(want, sizeof want, "<p class=\"interruption\" data-run=\"A\" "
                 "data-repetition=\"2\">Run A (%s) was interrupted (last sign of life ", RUN_ID);
        assert_non_null(strstr(html, want));
        assert_non_null(strstr(html, ": 1 complete repetition(s) kept, repetition 2 run again "
                                     "from its start. Lost: repetition 2 as far as it ran (9 "
                                     "file(s), moved to interrupted/1/); "));
        free(html);
        free(html_path);
    }
    free(before);
    free(after);
    free(dir);
    orch_plan_free(p);
}

/* The stopped run's passt network (a real passt in its namespace, under
 * the run's prefix as `[run] network = passt` makes them) is stopped by
 * resume's clean-up and counted in its line. Needs root, passt and
 * libvirt's user: skipped without them. */
static void test_resume_stops_passt(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = orch_fixture_plan(f, REPS3, "pool = userpool\n");
    orch_resume r;
    char err[2048], *dir = run_dir(f), want[512], *ns;
    const char *name = "drivebench-" RUN_ID "--second-vm1";
    char uuid[37], sock[256];
    if (geteuid() != 0 || access("/usr/bin/passt", X_OK) != 0 || !getpwnam("libvirt-qemu")) {
        free(dir);
        orch_plan_free(p);
        skip();
    }
    run_and_kill_in_rep2(f, p);
    orch_uuid_from_name(name, uuid);
    snprintf(sock, sizeof sock, "%s/%s.sock", ORCH_PASST_DIR, uuid);
    if (orch_passt_start("passt", name, sock, 40919, 3306, err, sizeof err) < 0)
        fail_msg("%s", err);
    ns = orch_passt_netns_path(name);
    assert_int_equal(access(ns, F_OK), 0);
    assert_int_equal(orch_resume_prepare(p, dir, RUN_ID, &r, f->out, err, sizeof err), 0);
    snprintf(want, sizeof want, "resume %s: the stopped run left 3 oltp process(es), 0 "
             "domain(s), 0 volume(s), 0 pool(s), 1 passt network(s): removed\n", RUN_ID);
    orch_assert_output(f, want);
    assert_int_equal(access(ns, F_OK), -1);
    assert_int_equal(access(sock, F_OK), -1);
    orch_resume_clear(&r);
    free(ns);
    free(dir);
    orch_plan_free(p);
}

static int fail_2nd_measure(void *ctx, orch_step s, const char *object)
{
    int *seen = ctx;
    (void)object;
    return s == ORCH_STEP_MEASURE && ++*seen == 2 ? -1 : 0;
}

/* A run of plan p that fails in repetition 2's measured phase (after
 * the checkpoint of repetition 1). */
static void run_failing_in_rep2(orch_fixture *f, orch_plan *p)
{
    orch_run_opts o;
    int seen = 0;
    orch_fixture_opts(&o, f);
    o.wait_ready = orch_fixture_ready;
    o.inject = fail_2nd_measure;
    o.hook_ctx = &seen;
    assert_int_equal(orch_run(p, &o), ORCH_RUN_FAILED);
}

/* Another plan than the kept repetitions': one line names each key that
 * differs, nothing is touched; the run's own plan then resumes. */
static void test_resume_refuses_another_protocol(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = orch_fixture_plan(f, REPS3, "pool = userpool\n"), *other;
    orch_resume r;
    char err[2048], want[1024], *dir = run_dir(f);

    run_failing_in_rep2(f, p);
    other = orch_fixture_plan_timed(f, REPS3, "precondition = 1s\nmeasure = 2s\n",
                                    "pool = userpool\n");
    assert_int_equal(orch_resume_prepare(other, dir, RUN_ID, &r, f->out, err, sizeof err), -1);
    snprintf(want, sizeof want, "cannot resume %s: the plan differs from the one its 1 complete "
             "repetition(s) ran with: measure_s was '1', now '2'; their figures would not "
             "compare with new ones (run the plan as a new run)", RUN_ID);
    assert_string_equal(err, want);
    orch_resume_clear(&r);
    orch_plan_free(other);

    /* two VMs on the second drive: the layout differs too */
    other = orch_fixture_plan(f, "profile = tiny\nrepetitions = 2\n", "pool = userpool\nvms = 2\n");
    assert_int_equal(orch_resume_prepare(other, dir, RUN_ID, &r, f->out, err, sizeof err), -1);
    snprintf(want, sizeof want, "cannot resume %s: the plan differs from the one its 1 complete "
             "repetition(s) ran with: VM drivebench-%s--second-vm2 of the plan's layout did not "
             "run before; repetitions was 3, now 2; their figures would not compare with new "
             "ones (run the plan as a new run)", RUN_ID, RUN_ID);
    assert_string_equal(err, want);
    orch_resume_clear(&r);
    orch_plan_free(other);

    assert_int_equal(orch_resume_prepare(p, dir, RUN_ID, &r, f->out, err, sizeof err), 0);
    assert_int_equal(r.from_rep, 2);
    /* the resumed run fails in repetition 2 again: its summary keeps the
     * first interruption, and the next resume adds a second */
    {
        orch_run_opts o;
        json_object *s;
        int seen = 1;
        orch_fixture_opts(&o, f);
        o.wait_ready = orch_fixture_ready;
        o.inject = fail_2nd_measure;
        o.hook_ctx = &seen;
        o.resume = &r;
        assert_int_equal(orch_run(p, &o), ORCH_RUN_FAILED);
        orch_resume_clear(&r);
        s = orch_fixture_summary(f);
        assert_int_equal(json_object_array_length(json_object_object_get(s, "interruptions")), 1);
        assert_string_equal(json_object_get_string(json_object_object_get(s, "completed_repetitions")), "1");
        json_object_put(s);
    }
    assert_int_equal(orch_resume_prepare(p, dir, RUN_ID, &r, f->out, err, sizeof err), 0);
    assert_int_equal(r.nintr, 2);
    assert_int_equal(r.intr[1].repetition, 2);
    assert_string_equal(r.intr[1].moved_to, "interrupted/2/");
    orch_resume_clear(&r);
    free(dir);
    orch_plan_free(p);
}

/* A complete run has nothing to resume; a folder another drivebench
 * holds is left alone. */
static void test_resume_refusals(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = orch_fixture_plan(f, "profile = tiny\n", "pool = userpool\n");
    orch_run_opts o;
    orch_resume r;
    char err[2048], want[1024], *dir = run_dir(f);
    int fd;

    assert_int_equal(orch_resume_prepare(p, "/nonexistent/run", RUN_ID, &r, f->out, err,
                                         sizeof err), -1);
    assert_string_equal(err, "no run folder /nonexistent/run: No such file or directory");
    orch_resume_clear(&r);

    orch_fixture_opts(&o, f);
    o.wait_ready = orch_fixture_ready;
    assert_int_equal(orch_run(p, &o), ORCH_RUN_OK);
    assert_int_equal(orch_resume_prepare(p, dir, RUN_ID, &r, f->out, err, sizeof err), 1);
    snprintf(want, sizeof want, "run %s completed (summary.json: complete): nothing to resume",
             RUN_ID);
    assert_string_equal(err, want);
    orch_resume_clear(&r);

    /* a run (here: this process, as any other) holds the folder */
    fd = orch_run_lock(dir, err, sizeof err);
    assert_true(fd >= 0);
    assert_int_equal(orch_resume_prepare(p, dir, RUN_ID, &r, f->out, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s is in use by a drivebench that is still running (pid %ld): "
             "stop it first, or let it finish", dir, (long)getpid());
    assert_string_equal(err, want);
    orch_resume_clear(&r);
    close(fd);
    free(dir);
    orch_plan_free(p);
}

/* Output of orch_bundle_verify of path against the allowed-signers file
 * signers (new string), and its status. */
static char *verify_signed(const char *path, const char *signers, int *rc, char *err,
                           size_t errlen)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    *err = '\0';
    *rc = orch_bundle_verify(path, signers, out, err, errlen);
    fclose(out);
    return text;
}

/* Output of orch_bundle_verify on path (new string), unsigned or not
 * checked, and its status. */
static char *verify(const char *path, int *rc, char *err, size_t errlen)
{
    return verify_signed(path, NULL, rc, err, errlen);
}

/* Set summary.json's drives[0].tps to v (a figure changed by hand). */
static void set_drive_tps(const char *dir, double v)
{
    char *path = orch_strfmt("%s/summary.json", dir);
    json_object *s = json_object_from_file(path), *drives, *d0;
    assert_non_null(s);
    assert_true(json_object_object_get_ex(s, "drives", &drives));
    d0 = json_object_array_get_idx(drives, 0);
    json_object_object_add(d0, "tps", json_object_new_double(v));
    assert_int_equal(json_object_to_file_ext(path, s, JSON_C_TO_STRING_PRETTY), 0);
    json_object_put(s);
    free(path);
}

/* Set summary.json's comparisons[0].verdict to v (a verdict changed by
 * hand). */
static void set_verdict(const char *dir, const char *v)
{
    char *path = orch_strfmt("%s/summary.json", dir);
    json_object *s = json_object_from_file(path), *cmps;
    assert_non_null(s);
    assert_true(json_object_object_get_ex(s, "comparisons", &cmps));
    json_object_object_add(json_object_array_get_idx(cmps, 0), "verdict",
                           json_object_new_string(v));
    assert_int_equal(json_object_to_file_ext(path, s, JSON_C_TO_STRING_PRETTY), 0);
    json_object_put(s);
    free(path);
}

/* The bundle of a fresh run verifies; a figure of summary.json changed
 * by hand (then bundled again: the sums agree) is named; a raw result
 * changed inside the bundle fails its sum; no bundle, and half of one,
 * are refused. */
static void test_bundle_verify(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = orch_fixture_plan(f, "profile = tiny\n", "pool = userpool\n");
    orch_run_opts o;
    char err[2048], want[1024], *dir = run_dir(f), *text, *bundle, *cmd, *half;
    char *tps, sum_was[65], sum_now[65];
    json_object *s;
    int rc;

    orch_fixture_opts(&o, f);
    o.wait_ready = orch_fixture_ready;
    assert_int_equal(orch_run(p, &o), ORCH_RUN_OK);
    bundle = orch_strfmt("%s/run.tar.gz", f->results);
    assert_int_equal(orch_bundle_write(dir, bundle, NULL, f->out, err, sizeof err), 0);
    snprintf(want, sizeof want, "bundle %s: %s, 15 file(s) and MANIFEST.sha256\n", RUN_ID, bundle);
    orch_assert_output(f, want);
    text = verify(bundle, &rc, err, sizeof err);
    assert_int_equal(rc, 0);
    snprintf(want, sizeof want, "verified: %s: 15 file(s) match MANIFEST.sha256; 189 figure(s) "
             "of summary.json recomputed from 3 VM result(s)\norigin: consistent, unsigned "
             "(nothing in the bundle says who made it)\n", RUN_ID);
    assert_string_equal(text, want);
    free(text);

    /* signed (issue 43): with the allowed signers, who and when */
    cmd = orch_strfmt("cd %s && ssh-keygen -q -t ed25519 -N '' -C alice -f alice && "
                      "echo \"alice@example.org $(cat alice.pub)\" > allowed", f->results);
    assert_int_equal(system(cmd), 0);
    free(cmd);
    {
        char *key = orch_strfmt("%s/alice", f->results);
        char *allowed = orch_strfmt("%s/allowed", f->results), *at;
        assert_int_equal(orch_bundle_write(dir, bundle, key, f->out, err, sizeof err), 0);
        text = verify_signed(bundle, allowed, &rc, err, sizeof err);
        assert_int_equal(rc, 0);
        snprintf(want, sizeof want, "verified: %s: 15 file(s) match MANIFEST.sha256; 189 "
                 "figure(s) of summary.json recomputed from 3 VM result(s)\norigin: signed by "
                 "alice@example.org at ", RUN_ID);
        assert_memory_equal(text, want, strlen(want));
        /* the signing time, then the key: ... at 2026-12-06T15:45:44Z (ED25519 key SHA256:...) */
        at = text + strlen(want);
        assert_int_equal(strspn(at, "0123456789-T:Z"), 20);
        assert_memory_equal(at + 20, " (ED25519 key SHA256:", 21);
        free(text);
        /* without the signers: signed, not checked */
        text = verify(bundle, &rc, err, sizeof err);
        assert_int_equal(rc, 0);
        assert_non_null(strstr(text, "\norigin: signed, signer not checked (--signers=FILE "
                                     "checks it against an allowed-signers file)\n"));
        free(text);
        free(key);
        free(allowed);
    }

    /* one figure changed by hand */
    cmd = orch_strfmt("cp %s/summary.json %s/summary.orig", dir, dir);
    assert_int_equal(system(cmd), 0);
    free(cmd);
    s = orch_fixture_summary(f);
    tps = strdup(jtext(s, "drives", 0, "tps"));
    json_object_put(s);
    set_drive_tps(dir, 123.5);
    assert_int_equal(orch_bundle_write(dir, bundle, NULL, f->out, err, sizeof err), 0);
    text = verify(bundle, &rc, err, sizeof err);
    assert_int_equal(rc, 1);
    snprintf(want, sizeof want, "mismatch: summary.json: drives[0].tps: stored 123.5, "
             "recomputed %s\n", tps);
    assert_string_equal(text, want);
    free(text);
    free(tps);

    /* a verdict changed by hand (the figure put back): named with its pair */
    cmd = orch_strfmt("mv %s/summary.orig %s/summary.json", dir, dir);
    assert_int_equal(system(cmd), 0);
    free(cmd);
    set_verdict(dir, "distinguishable");
    assert_int_equal(orch_bundle_write(dir, bundle, NULL, f->out, err, sizeof err), 0);
    text = verify(bundle, &rc, err, sizeof err);
    assert_int_equal(rc, 1);
    assert_string_equal(text, "mismatch: summary.json: comparisons[0] (a<b ' & .. x vs second, "
                        "tps_paired).verdict: stored \"distinguishable\", recomputed "
                        "\"not comparable\"\n");
    free(text);

    /* a raw result changed inside the bundle: unpacked, one byte added, packed again */
    cmd = orch_strfmt("cd %s && rm -rf x && mkdir x && tar -C x -xzf run.tar.gz && "
                      "printf ' ' >> x/%s/vm/drivebench-%s--second-vm1.r1.json && "
                      "tar -C x -czf run.tar.gz %s", f->results, RUN_ID, RUN_ID, RUN_ID);
    {
        char *raw = orch_strfmt("%s/vm/drivebench-%s--second-vm1.r1.json", dir, RUN_ID);
        char *unpacked = orch_strfmt("%s/x/%s/vm/drivebench-%s--second-vm1.r1.json",
                                     f->results, RUN_ID, RUN_ID);
        assert_int_equal(orch_sha256_file(raw, sum_was, err, sizeof err), 0);
        assert_int_equal(system(cmd), 0);
        assert_int_equal(orch_sha256_file(unpacked, sum_now, err, sizeof err), 0);
        free(raw);
        free(unpacked);
    }
    text = verify(bundle, &rc, err, sizeof err);
    assert_int_equal(rc, 1);
    snprintf(want, sizeof want, "mismatch: vm/drivebench-%s--second-vm1.r1.json: sha256: "
             "stored %s, recomputed %s\n", RUN_ID, sum_was, sum_now);
    assert_non_null(strstr(text, want));
    free(text);
    free(cmd);

    /* no bundle; half of one */
    text = verify(dir, &rc, err, sizeof err);
    assert_int_equal(rc, -1);
    free(text);
    cmd = orch_strfmt("%s/summary.json", dir);
    text = verify(cmd, &rc, err, sizeof err);
    assert_int_equal(rc, -1);
    snprintf(want, sizeof want, "%s: not a drivebench bundle: Unrecognized archive format", cmd);
    assert_string_equal(err, want);
    free(text);
    free(cmd);
    half = orch_strfmt("%s/half.tar.gz", f->results);
    cmd = orch_strfmt("head -c $(( $(stat -c %%s %s) / 2 )) %s > %s", bundle, bundle, half);
    assert_int_equal(system(cmd), 0);
    text = verify(half, &rc, err, sizeof err);
    assert_int_equal(rc, -1);
    snprintf(want, sizeof want, "%s: damaged or partial bundle: ", half);
    assert_memory_equal(err, want, strlen(want));
    free(text);
    free(cmd);
    free(half);
    free(bundle);
    free(dir);
    orch_plan_free(p);
}


/* Whether files a and b hold the same bytes (both readable). */
static void assert_same_file(const char *a, const char *b)
{
    char *ta = orch_file_read(a, 1 << 26), *tb = orch_file_read(b, 1 << 26);
    assert_non_null(ta);
    assert_non_null(tb);
    if (strcmp(ta, tb) != 0)
        fail_msg("%s and %s differ", a, b);
    free(ta);
    free(tb);
}

/* `drivebench summarize` (orch_summary_rebuild) of a run of three
 * repetitions with a precondition writes the run's own summary.json and
 * summary.csv byte for byte: figures, comparisons (Welch's with a
 * verdict), the drive I/O and precondition it keeps. */
static void test_summarize_reproduces(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = orch_fixture_plan(f, REPS3 "vms_per_drive = 2\n", "pool = userpool\n");
    orch_run_opts o;
    char err[2048], *dir = run_dir(f), *out = orch_strfmt("%s/re", f->results), *a, *b;
    res_summary *re;
    int verdicts = 0;

    orch_fixture_opts(&o, f);
    o.wait_ready = orch_fixture_ready;
    /* repetitions that differ: Welch's verdicts */
    setenv("FAKE_OLTP_REP_TPS", "100 104 97", 1);
    assert_int_equal(orch_run(p, &o), ORCH_RUN_OK);
    unsetenv("FAKE_OLTP_REP_TPS");
    re = orch_summary_rebuild(dir, err, sizeof err);
    if (!re)
        fail_msg("%s", err);
    assert_int_equal(mkdir(out, 0755), 0);
    assert_int_equal(res_summary_write_files(re, out, err, sizeof err), 0);
    for (int i = 0; re->io && i < re->io->ncmp; i++)
        verdicts += re->io->cmp[i].verdict == RES_CMP_NOT_DISTINGUISHABLE
                    || re->io->cmp[i].verdict == RES_CMP_DISTINGUISHABLE;
    assert_int_equal(re->io->ncmp, 4);
    assert_int_equal(verdicts, 1);     /* tps_welch */
    orch_summary_free(re);
    a = orch_strfmt("%s/summary.json", dir);
    b = orch_strfmt("%s/summary.json", out);
    assert_same_file(a, b);
    free(a);
    free(b);
    a = orch_strfmt("%s/summary.csv", dir);
    b = orch_strfmt("%s/summary.csv", out);
    assert_same_file(a, b);
    free(a);
    free(b);
    free(out);
    free(dir);
    orch_plan_free(p);
}

int main(void)
{
    /* One instance at a time on this machine (two make checks at once):
     * the passt networks of a run are named by its run id, the fixture's
     * RUN_ID in every instance, and resume's clean-up removes those its
     * run id names, another instance's too. Held until exit. */
    int lock = open("/tmp/drivebench-orch-test-resume.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (lock >= 0)
        flock(lock, LOCK_EX);
    const struct CMUnitTest tests[] = {
        /* first: it forks, before any run started libvirt's event thread here */
        ORCH_FIXTURE_TEST(test_resume_after_sigkill),
        ORCH_FIXTURE_TEST(test_resume_stops_passt),
        ORCH_FIXTURE_TEST(test_resume_refuses_another_protocol),
        ORCH_FIXTURE_TEST(test_resume_refusals),
        ORCH_FIXTURE_TEST(test_bundle_verify),
        ORCH_FIXTURE_TEST(test_summarize_reproduces),
    };
    return cmocka_run_group_tests_name("orchestrator resume and bundle", tests, NULL, NULL);
}
