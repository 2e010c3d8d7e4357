# SPDX-License-Identifier: GPL-2.0
# Read after the suite's tests/Makefile (make -f Makefile -f subdirs.mk):
# print the test directories that the Makefile enables on this guest.
.PHONY: avc-print-subdirs
avc-print-subdirs:
	@echo $(SUBDIRS)
