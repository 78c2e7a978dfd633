# images/: the guest image and real VMs (see images/README.md).
#
#   make image        build (or reuse) the guest image of ENGINE (default
#                     mariadb): images/build/{base.qcow2,vmlinuz,initrd.img};
#                     ENGINE=postgresql: images/build/postgresql/...,
#                     ENGINE=babelfish: images/build/babelfish/... (Babelfish
#                     built or reused first by babelfish/build.sh)
#                     (images/build.sh --engine ENGINE; each cached on its own)
#   make seed PLAN=P  build (or reuse) IMAGE_DIR/seed.qcow2, the prebuilt
#                     database of plan P (images/seed.sh; ENGINE as above
#                     when the plan's image folder does not say)
#   make run [PLAN=P] set up this machine and run plan P, by default
#                     plans/quick.ini (images/make-run.sh; root)
#   make boot-smoke   boot the image in one hand-made VM and log in to MariaDB
#   make boot-smoke-pgsql  the same for the PostgreSQL image, plus oltp ping
#                     and a 5 s oltp_read_write run through the pgsql driver
#   make e2e          every test with real VMs: boot-smoke (both engines), then drivebench
#                     run with 1 and with 2 VMs on one drive, 1 VM serving
#                     PostgreSQL through pgsql and through psqlODBC (TPC-C
#                     with its check), 1 VM serving T-SQL through Babelfish
#                     and FreeTDS (sysbench, then plans/quick-tsql.ini's
#                     TPC-C with its check: tests/e2e/run-1vm-tsql.sh), (when vmconfigs/tiny-seed.xml exists)
#                     from a prebuilt seed, across two connections, one of
#                     them qemu+ssh through an sshd of the test's own
#                     (tests/e2e/run-remote.sh), also with that SSH session
#                     killed mid-run (run-remote-drop.sh), and the fault
#                     matrix (tests/e2e/faults.sh: a VM destroyed, an oltp
#                     killed, MariaDB stopped in a guest, a drive that fills,
#                     drivebench SIGKILLed, libvirtd restarted when this test
#                     started it), and a sweep of two thread counts on one
#                     VM whose page headless Chromium renders (issue 34:
#                     tests/e2e/sweep-1vm.sh)
#
# `make test` runs the 1-VM drivebench runs: tests/e2e/run-1vm.sh (MariaDB;
# it also checks that [run] db_settings reached the server, at no extra VM time;
# about 3 minutes under TCG on an idle 2-core machine, more on a busy one)
# and tests/e2e/run-1vm-pgsql-native.sh (PostgreSQL through oltp's pgsql
# driver, 70-116 s at load 9-15), tests/e2e/run-1vm-tsql-sysbench.sh (T-SQL
# through FreeTDS to Babelfish in the guest, oltp_read_write: its run took
# 111-135 s here; the TPC-C half of run-1vm-tsql.sh, whose load of one
# warehouse in the TCG guest takes longer, is in `make e2e`), and one fault of the matrix, a VM
# destroyed mid-measure next to a healthy one (tests/e2e/fault-destroy.sh:
# 3 minutes at load ~12), a guest kernel panic mid-measure reported by the
# profiles' pvpanic device (tests/e2e/fault-panic.sh: 2 VMs, ~2 minutes)
# and one while booting, before that driver loads, failing the run at once
# (tests/e2e/fault-boot-panic.sh: 1 VM, ~15 s), and libvirtd restarted mid-measure under two VMs
# that must both be measured (tests/e2e/fault-libvirtd.sh: 1 m 38 s on an
# idle machine; it says SKIP where a libvirtd it did not start runs, as
# restarting that would disturb someone else's VMs: in CI it starts its
# own), a real Prometheus scraping the live view of a 1-VM run every
# second, its stored series equal to the run's interval data
# (tests/e2e/prometheus-1vm.sh, issue 34), and drivebench SIGKILLed in
# repetition 2 of a 3-repetition 1-VM run, then `drivebench resume`
# (tests/e2e/resume.sh: 285 s on a 2-core machine at load ~2-4), and the
# guest network's two host -> guest paths, QEMU's user-mode hostfwd and
# passt, on one VM (tests/e2e/guest-net.sh, issue 33). `make e2e` runs tests/e2e/run-1vm-pgsql.sh whole:
# also TPC-C through psqlODBC, whose prepare of one warehouse takes the TCG
# guest about 15 minutes.
# The image includes bin/oltp, so it is built first when this tree has a
# rule for it (ALL_TARGETS is filled by the modules included before this one).
.PHONY: image seed boot-smoke boot-smoke-pgsql e2e
# The Windows + SQL Server image recipe (images/windows/): rendered,
# validated and its QEMU command started paused, no Windows installed
CHECK_TARGETS += tests/windows/check.sh
ENGINE ?= mariadb
image: $(filter $(BIN)/oltp,$(ALL_TARGETS))
	images/build.sh --engine $(ENGINE)

seed: $(ALL_TARGETS) image
	@test -n "$(PLAN)" || { echo "usage: make seed PLAN=plans/....ini" >&2; exit 2; }
	images/seed.sh $(PLAN) $(if $(filter command line environment,$(origin ENGINE)),--engine $(ENGINE))

run:
	images/make-run.sh $(PLAN)

boot-smoke: image
	tests/e2e/boot-smoke.sh

boot-smoke-pgsql: $(filter $(BIN)/oltp,$(ALL_TARGETS))
	tests/e2e/boot-smoke-pgsql.sh

E2E_TESTS := tests/e2e/boot-smoke.sh tests/e2e/boot-smoke-pgsql.sh tests/e2e/seed-restore.sh \
             tests/e2e/run-1vm.sh tests/e2e/run-1vm-pgsql.sh tests/e2e/run-1vm-tsql.sh \
             tests/e2e/run-2vm.sh \
             tests/e2e/run-remote.sh tests/e2e/run-remote-drop.sh \
             $(if $(wildcard vmconfigs/tiny-seed.xml),tests/e2e/run-seed.sh) \
             tests/e2e/fault-vm.sh tests/e2e/fault-db-disk.sh tests/e2e/fault-sigkill.sh \
             tests/e2e/fault-libvirtd.sh tests/e2e/resume.sh tests/e2e/sweep-1vm.sh \
             tests/e2e/capacity-1vm.sh tests/e2e/fault-passt.sh
e2e: $(ALL_TARGETS) image
	@tests/run-all.sh $(E2E_TESTS)

TEST_TARGETS += tests/e2e/run-1vm.sh tests/e2e/run-1vm-pgsql-native.sh \
                tests/e2e/run-1vm-tsql-sysbench.sh tests/e2e/fault-destroy.sh \
                tests/e2e/fault-panic.sh tests/e2e/fault-boot-panic.sh tests/e2e/fault-libvirtd.sh \
                tests/e2e/prometheus-1vm.sh tests/e2e/resume.sh tests/e2e/guest-net.sh \
                tests/e2e/run-1vm-passt.sh tests/e2e/sweep-1vm.sh tests/e2e/capacity-1vm.sh
