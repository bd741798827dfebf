# Two commands matter on a fresh machine: `make demo` and `make test`.
# Everything else here is what those two are made of.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
BUILD := build/skbuild
FUZZ_BUILD := build/fuzz
FUZZ_SECONDS ?= 60
JOBS ?= 2
comma := ,

# Debian packages: toolchain pieces, system libraries, the engines, and chromium
# (tests/python/test_report.py renders the report in it, headless).
APT_PACKAGES := g++ pkg-config python3-venv libgtest-dev libgmock-dev libbenchmark-dev \
  libcli11-dev nlohmann-json3-dev libzstd-dev libsqlite3-dev zlib1g-dev \
  stockfish fairy-stockfish clang libclang-rt-14-dev chromium
# Python packages the native build itself needs (the module links this pyarrow).
# The build runs without isolation, so the extras' source distributions (chess)
# are built by the venv's own setuptools: a fresh venv's 65.5 has no
# bdist_wheel, hence a setuptools that has it and the wheel package.
BUILD_REQUIREMENTS := scikit-build-core nanobind "pyarrow>=26,<27" numpy "cmake>=3.24" ninja \
  "setuptools>=70.1" wheel
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)

.PHONY: setup apt venv build test test-cpp test-python bench demo fuzz sanitize clean

setup: apt venv

apt:
	@missing=$$(for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q "install ok installed" || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "setup: installing Debian packages:" $$missing; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi

venv: $(VENV)/.requirements

$(VENV)/.requirements: pyproject.toml Makefile
	@test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q $(BUILD_REQUIREMENTS)
	@touch $@

# One CMake tree (build/skbuild) serves the wheel and the C++ tests: pip
# builds it incrementally and installs the module and the `manaka` command
# into the venv; ctest runs in the same tree.
build: setup
	$(PY) -m pip install -q --no-build-isolation \
	  -C cmake.define.MANAKA_BUILD_TESTS=ON -C build.tool-args=-j$(JOBS) ".[test,torch,report,ray]"
	@# Stubs of the native module (manaka/_core/*.pyi) for IDEs and mypy.
	@site=$$($(PY) -c 'import manaka, os; print(os.path.dirname(manaka.__file__))') && rm -rf "$$site/_core" && \
	  $(PY) -m nanobind.stubgen -q -r -P -m manaka._core -O "$$site"

test: build test-cpp test-python

test-cpp:
	$(VENV)/bin/ctest --test-dir $(BUILD) --output-on-failure -j$(JOBS)

test-python:
	$(PY) -m mypy python/manaka tests/python
	$(PY) -m pytest -q tests/python

bench: build
	@for b in bench/*_bench.py; do echo "== $$b"; $(PY) $$b || exit 1; done

demo: build
	@PATH="$(CURDIR)/$(VENV)/bin:$$PATH" bash scripts/demo.sh

# libFuzzer targets need clang; the rules and formats (no Arrow, no SQLite) are
# rebuilt instrumented in their own tree.
fuzz: setup
	CC=clang CXX=clang++ $(VENV)/bin/cmake -S . -B $(FUZZ_BUILD) -G Ninja \
	  -DPython_EXECUTABLE=$(abspath $(PY)) -DMANAKA_BUILD_PYTHON=OFF -DMANAKA_BUILD_FUZZ=ON -DMANAKA_RULES_ONLY=ON \
	  -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -g"
	$(VENV)/bin/cmake --build $(FUZZ_BUILD) -j$(JOBS)
	@set -o pipefail; for f in $(FUZZ_BUILD)/*_fuzz; do \
	  name=$$(basename $$f); mkdir -p $(FUZZ_BUILD)/corpus/$$name; \
	  echo "== $$name for $(FUZZ_SECONDS) s"; \
	  $$f -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 $(FUZZ_BUILD)/corpus/$$name \
	    fuzz/seeds/$$name 2>&1 | tail -5 || exit 1; done

# ASan/UBSan build of the C++ tests (MANAKA_SANITIZE=thread for TSan).
sanitize: setup
	$(VENV)/bin/cmake -S . -B build/sanitize -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DPython_EXECUTABLE=$(abspath $(PY)) -DMANAKA_BUILD_PYTHON=OFF -DMANAKA_BUILD_TESTS=ON \
	  -DMANAKA_SANITIZE=$(or $(MANAKA_SANITIZE),address$(comma)undefined)
	$(VENV)/bin/cmake --build build/sanitize -j$(JOBS)
	$(VENV)/bin/ctest --test-dir build/sanitize --output-on-failure

clean:
	rm -rf build
