# Everything a fresh Debian machine needs is installed here, only when missing.
SHELL := /bin/bash
SWIFT ?= swift
# Debian packages the build and the tests use (C libraries come as their -dev packages).
APT_PACKAGES := pkg-config
# Images: libvips for thumbnails; exiftool for the tests that prove metadata is stripped.
APT_PACKAGES += libvips-dev libimage-exiftool-perl
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps tomo test bench clean

## deps: install the Debian packages that are missing
deps:
	@missing=""; \
	for package in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$package 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

## tomo: build the release binary (.build/release/tomo) and show its commands
tomo: deps
	$(SWIFT) build -c release --product tomo
	.build/release/tomo help

## test: build and run the whole test suite
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

## bench: release-build benchmarks (template rendering)
bench: deps
	$(SWIFT) build -c release --product tomo-bench
	.build/release/tomo-bench

clean:
	rm -rf .build public
