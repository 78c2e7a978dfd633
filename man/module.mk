# man/: drivebench(1), oltp(1) and drivebench-plan(5), written in
# reStructuredText and made into roff by docutils' rst2man (man/deps.txt).
# tests/man/man.sh holds them to what the programs accept and renders
# each with man -l.
RST2MAN ?= rst2man
MAN_PAGES := $(BUILD)/man/drivebench.1 $(BUILD)/man/oltp.1 $(BUILD)/man/drivebench-plan.5

$(BUILD)/man/%: man/%.rst
	@mkdir -p $(dir $@)
	$(RST2MAN) --strict $< $@.tmp && mv $@.tmp $@

MANDIR ?= $(PREFIX)/share/man
.PHONY: install-man
install-man: $(MAN_PAGES)
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5
	install -m 644 $(BUILD)/man/drivebench.1 $(BUILD)/man/oltp.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 $(BUILD)/man/drivebench-plan.5 $(DESTDIR)$(MANDIR)/man5/

ALL_TARGETS   += $(MAN_PAGES)
CHECK_TARGETS += tests/man/man.sh
