# Statehouse: `make run` serves Config/statehouse.json; `make test` runs every test.
SWIFT ?= swift
SHELL := /bin/bash
CONFIG ?= Config/statehouse.json
VENV := .venv
PYTHON_STAMP := $(VENV)/.websockets-installed

.PHONY: run test build release bootstrap venv clean sanitize soak

bootstrap:
	@SWIFT=$(SWIFT) scripts/bootstrap

build: bootstrap
	$(SWIFT) build

release: bootstrap
	scripts/swift-release

run: bootstrap
	scripts/swift-release --product statehouse
	.build/release/statehouse serve --config $(CONFIG)

# Python `websockets` in a venv: the independent WebSocket client the integration tests drive.
venv: $(PYTHON_STAMP)
$(PYTHON_STAMP): Tests/Python/requirements.txt
	@test -x $(VENV)/bin/python || python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r Tests/Python/requirements.txt
	@touch $@

# First scripts/check-architecture (docs/architecture.md's module graph against Package.swift and the imports; under a
# second), then unit and integration tests (`swift test` runs both runners: XCTest first, for
# Tests/StatehouseTestingXCTests, which proves that TestStore's failures reach XCTest; then Swift Testing, for the
# rest), then the browser client's pure parts and its message reading on fake transports under node's built-in runner
# (Tests/JS, TAP), then the chaos proxy's self-test (Tests/Support) and the browser client's tests in headless
# Chromium (Tests/Browser, under 2 minutes;
# SCREENSHOT=1 also rewrites docs/images/todo-example.png), then a plain "N passed, M failed" line over all of them.
# SWIFTFLAGS adds build flags (.ci/run passes -Xswiftc -warnings-as-errors).
SWIFTFLAGS ?=
test: bootstrap venv
	@SWIFT=$(SWIFT) scripts/check-architecture
	$(SWIFT) build --build-tests $(SWIFTFLAGS)
	@set -o pipefail; status=0; \
	  $(SWIFT) test --skip-build $(SWIFTFLAGS) 2>&1 | tee .build/test-output.txt || status=1; \
	  node --check clients/js/statehouse.js && node --test --test-reporter=tap Tests/JS/ 2>&1 | tee .build/js-test-output.txt \
	    || status=1; \
	  $(VENV)/bin/python Tests/Support/chaos_proxy_selftest.py 2>&1 | tee -a .build/test-output.txt || { status=1; \
	    grep -q '^chaos proxy tests:' .build/test-output.txt || echo 'chaos proxy tests: 0 passed, 1 failed' >> .build/test-output.txt; }; \
	  $(VENV)/bin/python Tests/Browser/browser_tests.py --binary "$$($(SWIFT) build $(SWIFTFLAGS) --show-bin-path)/statehouse" \
	    2>&1 | tee -a .build/test-output.txt || { status=1; \
	    grep -q '^browser tests:' .build/test-output.txt || echo 'browser tests: 0 passed, 1 failed' >> .build/test-output.txt; }; \
	  scripts/test-summary .build/test-output.txt .build/js-test-output.txt; exit $$status

# The Dockerfile's build stage without a Docker engine (scripts/check-docker-build): only the paths its COPY lines name,
# in an empty directory, then its release build there, then the binary the runtime stage takes. A few minutes.
docker-check: bootstrap
	scripts/check-docker-build

.PHONY: docker-check

# The attacks of docs/security.md replayed against the release server (Tests/Soak/soak.py), each bounded in count and
# time (a few minutes in all), then the crash test of durable stores (Tests/Soak/crash.py: SIGKILL under load, about
# 15 s; SEED=N repeats its kill moments); each ends with a plain "N passed, M failed" line; fails on any failed check.
soak: bootstrap venv
	scripts/swift-release --product statehouse
	status=0; \
	$(VENV)/bin/python Tests/Soak/soak.py --binary .build/release/statehouse $(if $(ONLY),--only $(ONLY)) || status=1; \
	$(VENV)/bin/python Tests/Soak/crash.py --binary .build/release/statehouse $(if $(SEED),--seed $(SEED)) || status=1; \
	exit $$status

# Statehouse nodes sharing one Redis (issue 19). make cluster: redis-server on 127.0.0.1:6390 (AOF always, files in
# data/cluster/redis) and 3 nodes n1, n2, n3 on 8081, 8082, 8083 serving Config/cluster.json, until Ctrl-C
# (scripts/cluster). make cluster-test: the checks' self-test (hand-made logs, a Redis of its own killed and restarted,
# the clients against one plain node), then Tests/Cluster/cluster_test.py: 3 nodes and their own Redis under load for
# about 25 s, the node owning the most stores killed and restarted, then Redis killed and restarted, then every log,
# ack and subscriber checked and the unavailability per store measured (under 90 s; SEED=N repeats its kill moments,
# LEASE_MS=N sets the lease TTL, default 2000); each ends with a plain "N passed, M failed" line.
cluster: bootstrap
	scripts/swift-release --product statehouse
	scripts/cluster

cluster-test: bootstrap venv
	scripts/swift-release --product statehouse
	status=0; \
	$(VENV)/bin/python Tests/Cluster/cluster_test.py --self-test --binary .build/release/statehouse || status=1; \
	$(VENV)/bin/python Tests/Cluster/cluster_test.py --binary .build/release/statehouse $(if $(SEED),--seed $(SEED)) \
	  $(if $(LEASE_MS),--lease-ms $(LEASE_MS)) || status=1; \
	exit $$status

.PHONY: cluster cluster-test

clean:
	rm -rf .build $(VENV)

# The test suite under AddressSanitizer, then ThreadSanitizer (separate build directories). Leak detection is off:
# the test runners themselves (XCTest, Swift Testing) leave a few hundred bytes reachable at exit.
sanitize: bootstrap venv
	@mkdir -p .build
	STATEHOUSE_SANITIZER=address ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --sanitize=address --scratch-path .build/asan 2>&1 | tee .build/asan-output.txt; \
	  status=$${PIPESTATUS[0]}; scripts/test-summary .build/asan-output.txt; test $$status -eq 0
	STATEHOUSE_SANITIZER=thread $(SWIFT) test --sanitize=thread --scratch-path .build/tsan 2>&1 | tee .build/tsan-output.txt; \
	  status=$${PIPESTATUS[0]}; scripts/test-summary .build/tsan-output.txt; test $$status -eq 0

# RFC 6455 conformance: Autobahn|Testsuite against statehouse-echo (MODE=full adds the 9.* performance cases),
# exits non-zero on any FAILED case. See docs/conformance.md.
MODE ?= quick
autobahn:
	scripts/autobahn $(MODE)

# Coverage-guided fuzzing (libFuzzer + ASan) of every parser of client bytes, and the browser client's reader under
# node (Tests/JS/fuzz_reader.mjs; `scripts/fuzz list` names the targets), FUZZ_SECONDS per target; crashing inputs are
# kept under Fuzz/crashes/. See docs/conformance.md.
FUZZ_SECONDS ?= 60
fuzz:
	scripts/fuzz $(FUZZ_SECONDS)

.PHONY: autobahn fuzz

# The hot path's cost in instructions (callgrind, repeatable on a busy machine): per POST /stores/counter/actions on the
# release server, failing above HOT_PATH_LIMIT (default 36000; measured about 29,800 after issue 18). See scripts/check-hot-path.
hotpath: bootstrap
	scripts/swift-release --product statehouse
	scripts/check-hot-path

# One WebSocket connection's cost in instructions (callgrind): accept, handshake, snapshot, close frames and teardown on
# /stores/ticker/ws, failing above WS_HANDSHAKE_LIMIT (default 90000; measured about 79,000). See
# scripts/count-ws-handshake and BENCHMARKS.md "WebSocket handshake (issue 18)".
wshandshake: bootstrap
	scripts/swift-release --product statehouse
	scripts/count-ws-handshake

.PHONY: hotpath wshandshake

# make bench: Statehouse side by side with nginx, uWebSockets (C and socketify), websockets, picows and Redis
# (Benchmarks/run; BENCH="http fanout idle many-stores core scaling durable" picks scenarios, RUNS/HTTP_SECONDS/FANOUT_SECONDS tune it).
# Results: BENCHMARKS.md.
.PHONY: bench
bench: bootstrap
	Benchmarks/run $(BENCH)
