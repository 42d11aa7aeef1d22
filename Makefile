# socsim quick start: `make demo` (the main job) and `make test` (the whole suite).
# Each installs missing Debian packages, configures and builds into build/, then runs.
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=RelWithDebInfo

.PHONY: demo test build configure deps clean

deps:
	@bash scripts/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD) $(CMAKE_FLAGS) > $(BUILD).configure.log 2>&1 || (cat $(BUILD).configure.log; exit 1)

# MAKEFLAGS= keeps the inner make from printing "Entering/Leaving directory" for every target.
build: configure
	@MAKEFLAGS= cmake --build $(BUILD) -j $(JOBS)

# The main job needs the socsim binary only (the test programs are built by `make test`).
demo: configure
	@MAKEFLAGS= cmake --build $(BUILD) -j $(JOBS) --target socsim
	$(BUILD)/bin/socsim validate

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

clean:
	rm -rf $(BUILD) $(BUILD).configure.log
