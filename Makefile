# SPDX-License-Identifier: GPL-2.0
#
# Kernel markers for Linux 6.12: graft this overlay onto Debian's
# linux-source-6.12, build it, boot it under QEMU and test it.
# See README.md for what each target does.

H := harness
SCRIPT ?=
FILES ?=

.PHONY: all deps graft build check stress kcsan demo bench tools lint run shell kdir clean help
.PHONY: patches series-build refresh

all: build

help:
	@sed -n '/^## Targets/,/^## /p' README.md

deps:
	@$(H)/deps.sh

graft: deps
	@$(H)/graft.sh

build: graft
	@$(H)/build.sh

# Build (and, beside it, the kernels the host tests build), then the host
# tests and the guest boots.
check: deps
	@$(H)/graft.sh && { $(H)/build-beside.sh & $(H)/build.sh; }; \
	BUILD_RC=$$? \
	$(H)/check.sh; rc=$$?; wait; exit $$rc

# The reliability tests at full length: storm, module churn, fault injection.
stress: build
	@$(H)/stress.sh

# The storm, module churn and CPU hotplug tests on a KCSAN kernel.
kcsan: deps graft
	@FLAVOUR=kcsan $(H)/build.sh && FLAVOUR=kcsan $(H)/kcsan.sh

# The suffix of the build's directories, as harness/lib.sh names them.
BSFX = $(if $(LLVM),-llvm)$(if $(filter arm64,$(ARCH)),-arm64)

# ARCH=arm64: without the tools image, whose perf and bpftrace are x86's.
demo: build
	@$(H)/run.sh $(if $(filter arm64,$(ARCH)),,-T) -t 900 \
		-l build/logs$(BSFX)/demo.log $(H)/guest/demo.sh

# marker-bench on the production-like kernel (build/obj-bench), booted
# twice: TCG times and -icount instruction counts; build/bench*.csv.
bench: deps
	@$(H)/bench.sh

# Host tools: markers-list (libelf), a kbuild host program of the build.
tools: build
	@f=build/obj$(BSFX)/scripts/markers/markers-list; test -x $$f && echo $$f

lint: graft
	@$(H)/lint.sh

# The kernel side as a git format-patch series against 6.12, split as
# harness/series.def says, with a cover letter: build/patches/.
patches: graft
	@RFC="$(RFC)" VERSION="$(VERSION)" BASE_COMMIT="$(BASE_COMMIT)" python3 $(H)/series.py generate

# Edits of build/linux back into the repository (a new patch of patches/
# for the kernel's own files: NAME=, MSG=), then graft, build and rewrite
# scripts/markers/catalog.ref.
refresh: deps
	@$(H)/refresh.sh

# Build the kernel at every patch of the series; names the first failure.
series-build: graft
	@$(H)/series-build.sh

# TOOLS=1: with Debian's perf and bpftrace (x86_64; run.sh refuses it on
# arm64).
run: build
	@test -n "$(SCRIPT)" || { echo 'usage: make run SCRIPT=guest.sh FILES="a.ko b.txt" [TOOLS=1]' >&2; exit 2; }
	@$(H)/run.sh $(if $(TOOLS),-T) -t 1800 -l build/logs/run.log "$(SCRIPT)" $(FILES)

# ARCH=arm64: without perf and bpftrace, as make demo.
shell: build
	@$(H)/run.sh $(if $(filter arm64,$(ARCH)),,-T) -i

# The kbuild output directory, for out-of-tree modules, from the module's
# directory: make -C "$(make -s -C /path/to/this/repository kdir)" M=$PWD modules
kdir:
	@echo "$(CURDIR)/build/obj$(BSFX)"

clean:
	rm -rf build
