# images/: the guest image and real VMs (see images/build.sh).
#
#   make image     build (or reuse) images/build/{base.qcow2,vmlinuz,initrd.img}
#
# The image includes bin/oltp, so it is built first when this tree has a
# rule for it (ALL_TARGETS is filled by the modules included before this one).
.PHONY: image
image: $(filter $(BIN)/oltp,$(ALL_TARGETS))
	images/build.sh
