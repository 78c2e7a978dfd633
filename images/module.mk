# images/: the guest image and real VMs (see images/build.sh).
#
#   make image        build (or reuse) images/build/{base.qcow2,vmlinuz,initrd.img}
#   make boot-smoke   boot the image in one hand-made VM and log in to MariaDB
#   make e2e          the end-to-end tests with real VMs (root, ~2-6 min each
#                     under TCG): boot-smoke, then drivebench run with 1 and
#                     2 VMs on one drive
#
# The image includes bin/oltp, so it is built first when this tree has a
# rule for it (ALL_TARGETS is filled by the modules included before this one).
.PHONY: image boot-smoke e2e
image: $(filter $(BIN)/oltp,$(ALL_TARGETS))
	images/build.sh

boot-smoke: image
	tests/e2e/boot-smoke.sh

e2e: $(ALL_TARGETS) image
	@tests/run-all.sh tests/e2e/boot-smoke.sh tests/e2e/run-1vm.sh tests/e2e/run-2vm.sh
