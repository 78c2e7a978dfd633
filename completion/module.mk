# completion/: bash completion of drivebench and oltp (sysbench, its other
# name, shares oltp's); tests/completion/completion.sh drives each.
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
.PHONY: install-completion
install-completion:
	install -d $(DESTDIR)$(BASHCOMPDIR)
	install -m 644 completion/drivebench.bash $(DESTDIR)$(BASHCOMPDIR)/drivebench
	ln -sf drivebench $(DESTDIR)$(BASHCOMPDIR)/oltp
	ln -sf drivebench $(DESTDIR)$(BASHCOMPDIR)/sysbench

CHECK_TARGETS += tests/completion/completion.sh
