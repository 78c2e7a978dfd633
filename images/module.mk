# images/: the guest image and real VMs (see images/README.md).
#
#   make image        build (or reuse) images/build/{base.qcow2,vmlinuz,initrd.img}
#   make seed PLAN=P  build (or reuse) images/build/seed.qcow2, the prebuilt
#                     database of plan P (images/seed.sh)
#   make run [PLAN=P] set up this machine and run plan P, by default
#                     plans/quick.ini (images/make-run.sh; root)
#   make boot-smoke   boot the image in one hand-made VM and log in to MariaDB
#   make e2e          every test with real VMs: boot-smoke, then drivebench
#                     run with 1 and with 2 VMs on one drive, and (when
#                     vmconfigs/tiny-seed.xml exists) from a prebuilt seed
#
# `make test` runs the 1-VM drivebench run (tests/e2e/run-1vm.sh: about
# 3 minutes under TCG on an idle 2-core machine, more on a busy one).
# The image includes bin/oltp, so it is built first when this tree has a
# rule for it (ALL_TARGETS is filled by the modules included before this one).
.PHONY: image seed boot-smoke e2e
image: $(filter $(BIN)/oltp,$(ALL_TARGETS))
	images/build.sh

seed: $(ALL_TARGETS) image
	@test -n "$(PLAN)" || { echo "usage: make seed PLAN=plans/....ini" >&2; exit 2; }
	images/seed.sh $(PLAN)

run:
	images/make-run.sh $(PLAN)

boot-smoke: image
	tests/e2e/boot-smoke.sh

E2E_TESTS := tests/e2e/boot-smoke.sh tests/e2e/run-1vm.sh tests/e2e/run-2vm.sh \
             $(if $(wildcard vmconfigs/tiny-seed.xml),tests/e2e/run-seed.sh)
e2e: $(ALL_TARGETS) image
	@tests/run-all.sh $(E2E_TESTS)

TEST_TARGETS += tests/e2e/run-1vm.sh
