# The two commands of the README: `make run` and `make test`. Both install what is missing
# (Debian packages, then the Python packages Debian lacks into .venv from PyPI),
# configure and build in build/, then run.
SYSTEM_PYTHON ?= /usr/bin/python3
VENV ?= .venv
PYTHON ?= $(VENV)/bin/python
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
CONFORMANCE_GAMES ?= 1000
SOAK_GAMES ?= 100000
FUZZ_SECONDS ?= 30
FUZZ_SEED ?= 0
FUZZ_CXX ?= clang++-16

# $(call CONFIGURE,dir,build type[,Python interpreter, default SYSTEM_PYTHON]). Through
# ccache where it is installed (tools/setup/install_deps.sh installs it; looked up when a recipe
# runs, after deps): the builds of one checkout share what they compile alike, as the
# libraries of build/ and build-notorch/ do.
CCACHE = $(shell command -v ccache 2> /dev/null)
CONFIGURE = cmake -S . -B $(1) -G Ninja -DCMAKE_BUILD_TYPE=$(2) \
  -DPython_EXECUTABLE=$(or $(3),$(SYSTEM_PYTHON)) \
  $(if $(CCACHE),-DCMAKE_CXX_COMPILER_LAUNCHER=$(CCACHE))
# The sanitizers' builds at -O1 with line tables (-g1), as the sanitizers' authors advise: the
# stacks they print name every line, and the builds compile in half the time of -O2 -g.
SANITIZER_FLAGS = -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG"
# The Python tests on every core (pytest-xdist): a test at a time per worker, those of one
# xdist_group (the Ray clusters) on one worker.
PYTEST_ARGS = tests/python -q -p no:cacheprovider -n $(JOBS) --dist loadgroup
PYTEST = PYTHONPATH=$(BUILD)/python $(PYTHON) -m pytest $(PYTEST_ARGS)

.PHONY: all deps venv configure build run test soak bench sanitize tsan notorch torch2 \
  torch2-tests latest wheel wheel-test fuzz format format-check lint clean

all: build

deps:
	@tools/setup/install_deps.sh

# Debian's Python with Gymnasium and PettingZoo (tools/setup/python_requirements.txt), seeing
# Debian's numpy and torch.
venv: deps
	@tools/setup/make_venv.sh $(VENV)

configure: deps
	@$(call CONFIGURE,$(BUILD),Release) $(CMAKE_FLAGS) > /dev/null

build: configure
	cmake --build $(BUILD) -j $(JOBS)

# The main job: train Knight Fight for a few minutes, play it against random and MCTS,
# write out/report.md with its training curves (tools/demo/main_job.py; the game is the first
# whose env/games/<game>/studies.json says "main_job": true, Knight Fight's).
MAIN_MINUTES ?= 5
run: build venv
	$(PYTHON) tools/demo/main_job.py --build $(BUILD) --out out --minutes $(MAIN_MINUTES)

test: build venv format-check lint
	KNIGHTGYM_CONFORMANCE_GAMES=$(CONFORMANCE_GAMES) ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)
	$(PYTEST)

# The conformance suites on SOAK_GAMES games a spec, a hundred times make test's: a Python
# test may take an hour (pyproject.toml's time limit is make test's).
soak: build venv
	KNIGHTGYM_CONFORMANCE_GAMES=$(SOAK_GAMES) ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) -R '[Cc]onformance'
	KNIGHTGYM_CONFORMANCE_GAMES=$(SOAK_GAMES) $(PYTEST) -k conformance --timeout 3600

bench: build
	for game in $$($(BUILD)/knightgym list --names); do $(BUILD)/knightgym bench $$game; done
	$(BUILD)/knightgym perft-bench
	$(BUILD)/knightgym search-bench

# The C++ tests and the fuzz targets under the address and undefined-behaviour sanitizers
# share one build, $(BUILD)-sanitized: Debian's clang at -O1 with line tables,
# libFuzzer's instrumentation beside the sanitizers (KNIGHTGYM_FUZZ), no Python module;
# the libraries compile once for both. Without LibTorch: clang 16 cannot compile LibTorch
# 1.13's headers as C++20, so the networks' code is tested in the Release builds alone
# (make test, make torch2).
SANITIZED = $(call CONFIGURE,$(BUILD)-sanitized,RelWithDebInfo) -DCMAKE_CXX_COMPILER=$(FUZZ_CXX) \
  $(SANITIZER_FLAGS) -DKNIGHTGYM_FUZZ=ON -DKNIGHTGYM_PYTHON=OFF -DKNIGHTGYM_TORCH=OFF

# The C++ tests under the address and undefined-behaviour sanitizers: all but the
# 100-game tournaments ([arena]) and the training run that must learn ([learning]), the
# conformance suite with 30 games a spec (the fuzz targets play far more under the same
# sanitizers: make fuzz). On every core, in shards (tools/ci/run_test_shards.sh).
sanitize: deps
	@$(SANITIZED) > /dev/null
	cmake --build $(BUILD)-sanitized -j $(JOBS) --target knightgym_tests
	KNIGHTGYM_CONFORMANCE_GAMES=30 tools/ci/run_test_shards.sh \
	  $(BUILD)-sanitized/tests/knightgym_tests $(JOBS) "~[arena]~[learning]"

# The threaded parts under the thread sanitizer: the vector env, the pool, balance runs,
# batched arenas, self-play on several threads and the UCI engine's search thread; none
# needs LibTorch, so the build goes without it, and also runs the C++ test of that build's
# own ([notorch]). Their test files alone are compiled (knightgym_tsan_tests, tests/CMakeLists.txt).
tsan: deps
	@$(call CONFIGURE,$(BUILD)-tsan,RelWithDebInfo) $(SANITIZER_FLAGS) -DKNIGHTGYM_TSAN=ON \
	  -DKNIGHTGYM_PYTHON=OFF -DKNIGHTGYM_TORCH=OFF > /dev/null
	cmake --build $(BUILD)-tsan -j $(JOBS) --target knightgym_tsan_tests
	KNIGHTGYM_CONFORMANCE_GAMES=100 tools/ci/run_test_shards.sh $(BUILD)-tsan/tests/knightgym_tsan_tests \
	  $(JOBS) "[vector_env],[thread_pool],[balance],[util],[uci],[arena_batches],[parallel_self_play],[notorch]"

# The fuzz targets of tests/fuzz (libFuzzer, in the sanitized build above), each run FUZZ_SECONDS after its regression inputs
# (tools/ci/run_fuzzers.sh), with libFuzzer's seed FUZZ_SEED (0: a new one every run), JOBS at a time.
fuzz: deps
	@$(SANITIZED) > /dev/null
	cmake --build $(BUILD)-sanitized -j $(JOBS) --target fuzz_targets
	tools/ci/run_fuzzers.sh $(BUILD)-sanitized $(FUZZ_SECONDS) $(FUZZ_SEED) $(JOBS)

# The Python package built without LibTorch (KNIGHTGYM_TORCH=OFF, like KataGo's dummy
# backend): the module, the command and the test games' module, and the Python tests,
# which skip those marked needs_networks. The C++ libraries and tests without LibTorch
# are built by make tsan and make fuzz, which run their own.
notorch: deps venv
	@$(call CONFIGURE,$(BUILD)-notorch,Release) -DKNIGHTGYM_TORCH=OFF > /dev/null
	cmake --build $(BUILD)-notorch -j $(JOBS) --target _knightgym knightgym_cli \
	  knightgym_test_games_module
	KNIGHTGYM_CONFORMANCE_GAMES=100 PYTHONPATH=$(BUILD)-notorch/python $(PYTHON) -m pytest \
	  $(PYTEST_ARGS)

# A current PyTorch beside Debian's 1.13: .venv-torch2 holds PyPI's torch 2.15 and what
# needs it (RLlib, Tianshou, Stable-Baselines3), pinned in tools/setup/python_requirements_torch2.txt
# and seeing none of Debian's packages (tools/setup/make_torch2_venv.sh); build-torch2 is built
# against its LibTorch (and PyPI's pybind11, for its NumPy 2): the Python modules, the CLI
# and the LibTorch C++ tests, which run but the training run that must learn ([learning]);
# then the Python tests that need a network, those of lazy loading and one libtorch per
# process, the examples, RLlib's, Tianshou's and Stable-Baselines3's on knightgym's envs,
# and the snippets of docs/api.md. One torch thread per test process: PyPI's OpenMP spins, and spinning threads
# starve each other when the processes outnumber the cores. From nothing, 6 minutes on
# 2 quiet cores (10 on busy ones), 2.5 of them pip's: 3 GB of wheels, mostly CUDA's.
TORCH2_VENV ?= .venv-torch2
TORCH2_BUILD ?= $(BUILD)-torch2
TORCH2_PYTEST = OMP_NUM_THREADS=1 PYTHONPATH=$(TORCH2_BUILD)/python $(TORCH2_VENV)/bin/python \
  -m pytest -q -p no:cacheprovider -n $(JOBS) --dist loadgroup
TORCH2_TESTS = $(addprefix tests/python/,test_lazy_torch.py test_examples.py test_rllib.py \
  test_tianshou.py) $(wildcard tests/python/test_sb3.py tests/python/test_doc_snippets.py)
torch2: deps
	@tools/setup/make_torch2_venv.sh $(TORCH2_VENV)
	@$(MAKE) --no-print-directory torch2-tests

# make torch2's build and tests, for the venv TORCH2_VENV in TORCH2_BUILD.
torch2-tests:
	@$(call CONFIGURE,$(TORCH2_BUILD),Release,$(abspath $(TORCH2_VENV))/bin/python) > /dev/null
	cmake --build $(TORCH2_BUILD) -j $(JOBS) --target _knightgym _knightgym_torch knightgym_cli \
	  knightgym_torch_tests
	OMP_NUM_THREADS=1 tools/ci/run_test_shards.sh $(TORCH2_BUILD)/tests/knightgym_torch_tests \
	  $(JOBS) "~[learning]"
	$(TORCH2_PYTEST) tests/python -m needs_networks
	$(TORCH2_PYTEST) $(TORCH2_TESTS)

# The newest releases: .venv-latest with the newest of everything .venv-torch2 holds
# (tools/setup/python_requirements_torch2.in's names, unpinned: tools/setup/make_latest_venv.sh), then
# make torch2's build and tests against it, and the tests of every integration. Not in
# CI, whose result must not change with PyPI: run it when a release comes out, and what
# fails is what to fix before the pins (and the extras' bounds) move.
LATEST_TESTS = $(TORCH2_TESTS) $(addprefix tests/python/,test_gymnasium.py test_pettingzoo.py \
  test_openspiel.py test_env_copies.py test_vector_env.py test_extras.py)
latest: deps
	@tools/setup/make_latest_venv.sh .venv-latest
	@$(MAKE) --no-print-directory torch2-tests TORCH2_VENV=.venv-latest \
	  TORCH2_BUILD=$(BUILD)-latest TORCH2_TESTS="$(LATEST_TESTS)"

# The wheel (docs/api.md#install): built by scikit-build-core (pyproject.toml) in
# .venv-torch2 against its torch, in build-wheel/ (kept: a rebuild compiles what changed),
# then repaired by auditwheel for manylinux, libtorch's libraries left to the torch package
# that the wheel requires; written to dist/. It compiles with the other builds' compiler
# (CMake's c++, not Python's sysconfig CXX, which scikit-build-core would take), so that
# ccache serves what build-torch2 compiled alike. make wheel-test installs the wheel into
# a clean venv ($(WHEEL_VENV)) and runs tools/release/wheel/smoke_test.py there.
WHEEL_VENV ?= .venv-wheel
LIBTORCH_LIBRARIES = libtorch.so libtorch_cpu.so libc10.so
wheel: deps
	@tools/setup/make_torch2_venv.sh $(TORCH2_VENV)
	rm -rf dist/raw
	CXX=$${CXX:-c++} $(TORCH2_VENV)/bin/python -m pip wheel --quiet --disable-pip-version-check \
	  --no-build-isolation --no-deps -w dist/raw \
	  $(if $(CCACHE),--config-settings=cmake.define.CMAKE_CXX_COMPILER_LAUNCHER=$(CCACHE)) .
	PATH=$(abspath $(TORCH2_VENV))/bin:$$PATH auditwheel repair -w dist \
	  $(addprefix --exclude ,$(LIBTORCH_LIBRARIES)) dist/raw/knightgym-*.whl

wheel-test: wheel
	tools/release/wheel/test_wheel.sh $(WHEEL_VENV)

# clang-format and shellcheck come with the other dependencies (tools/setup/install_deps.sh);
# ruff, Python's linter and formatter (pyproject.toml's [tool.ruff]), with the .venv.
FORMATTED = $(shell git ls-files '*.h' '*.cc' 2>/dev/null)
PYTHON_SOURCES = bindings/python tests/python tools examples
SHELL_SOURCES = $(shell git ls-files '*.sh' .ci/run 2>/dev/null)
format: venv
	clang-format -i $(FORMATTED)
	$(VENV)/bin/ruff format $(PYTHON_SOURCES)
	$(VENV)/bin/ruff check --fix $(PYTHON_SOURCES)

lint: venv
	@$(VENV)/bin/ruff check --quiet $(PYTHON_SOURCES) && \
	  $(VENV)/bin/ruff format --check --quiet $(PYTHON_SOURCES) && echo "ruff: clean"
	@shellcheck $(SHELL_SOURCES) && echo "shellcheck: clean"

format-check: deps
	@clang-format --dry-run -Werror $(FORMATTED) && echo "clang-format: clean"

clean:
	rm -rf $(BUILD) $(BUILD)-sanitized $(BUILD)-tsan $(BUILD)-notorch $(BUILD)-torch2 $(BUILD)-latest build-wheel dist
