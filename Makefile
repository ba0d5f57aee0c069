# shardscope - build, run, test, bench, install.
#
#   make          build ./shardscope (checks build dependencies first)
#   make run      build and open the explorer
#   make test     unit, screen and end-to-end tests (cmocka + tmux)
#   make asan     the tests under AddressSanitizer + UBSan (gcc), then the
#                 unit and screen programs under clang's UBSan (float casts)
#   make fuzz     each libFuzzer harness (tests/fuzz) for FUZZ_SECONDS (60)
#   make bench    timing figures (never asserted by tests)
#   make portable build-portable/shardscope for a bare GPU machine (CUDA
#                 dlopen'd, cJSON static or bundled; readelf-checked)
#   make validate the model against the published measurements, per category
#   make validate-kernels  the per-kernel model against the measured kernel
#                 tables in ../shared/reference/data (when present);
#                 VK_ARGS=--by-m: the bf16/fp8 GEMM rows by token count m;
#                 VK_ARGS=--moe-bands: the MoE rows by expert width and
#                 tokens per expert;
#                 VK_ARGS=--attn-by-len: the decode attention rows by batch
#                 and KV length, per GPU and KV dtype;
#                 VK_ARGS=--prefill-by-len: prefill attention by head size,
#                 sequence length and batch
#   make install  PREFIX=/usr/local DESTDIR= : binary + man page
#   make clean
#
# USE_CUDA=auto|yes|no: auto and yes build the cuBLAS calibration backend
# (CUDA is loaded with dlopen when calibrating; no toolkit needed), no
# leaves it out.
# WERROR=1 adds -Werror (CI).  UPDATE_GOLDENS=1 regenerates screen goldens.

CC      ?= cc
PREFIX  ?= /usr/local
BUILD   ?= build
USE_CUDA ?= auto

PKG_CONFIG ?= pkg-config
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CSTD    := -std=c11 -D_POSIX_C_SOURCE=200809L -D_XOPEN_SOURCE_EXTENDED
OPT     ?= -O2 -g
CFLAGS  ?=
CFLAGS  += $(CSTD) $(OPT) $(WARN) $(if $(WERROR),-Werror) $(EXTRA_CFLAGS)
LDFLAGS += $(EXTRA_LDFLAGS)

# pkg-config is only consulted after mk/deps.sh ran (see the deps stamp).
PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags ncursesw libcjson 2>/dev/null)
PKG_LIBS   = $(shell $(PKG_CONFIG) --libs ncursesw libcjson 2>/dev/null)
CMOCKA_CFLAGS = $(shell $(PKG_CONFIG) --cflags cmocka 2>/dev/null)
CMOCKA_LIBS   = $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null)

# --- CUDA (optional, loaded at run time) ------------------------------------
# calib/backend/cuda.c declares the few CUDA and cuBLAS values it uses and
# loads libcudart and libcublas with dlopen when a calibration starts: it
# needs no toolkit to build, and the binary links no CUDA library.
# USE_CUDA=no builds calib/backend/nocuda.c instead ("no CUDA support").
ifeq ($(USE_CUDA),no)
  CALIB_SRC   := $(filter-out %_cuda.c %/cuda.c,$(shell find calib -name '*.c'))
else
  CUDA_CFLAGS := -DSHARDSCOPE_HAVE_CUDA
  CALIB_SRC   := $(filter-out %nocuda.c,$(shell find calib -name '*.c'))
endif

# --- sources ---------------------------------------------------------------
# Each folder is compiled with only the include paths it may use (the
# layering table of README.md, "Architecture"); `make check-layers` checks the includes.
ENGINE_SRC := $(shell find engine -name '*.c')
PRESET_SRC := $(shell find presets -name '*.c')
TUI_SRC    := $(shell find tui -name '*.c' ! -path tui/main.c)
PRESET_JSON := $(sort $(wildcard presets/*.json))
GEN_SRC    := $(BUILD)/gen/presets_embedded.c

LIB_SRC  := $(sort $(ENGINE_SRC) $(PRESET_SRC) $(CALIB_SRC) $(TUI_SRC))
# CORE: everything but the error-band table, which mk/gen_bands.c computes
# with CORE from the shipped validation cases when the program is built
# (val_bands_shipped; eval and the explorer then start without evaluating
# every case).
CORE_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(LIB_SRC)) $(BUILD)/gen/presets_embedded.o
CORE     := $(BUILD)/libcore.a
BANDS_SRC := $(BUILD)/gen/bands_shipped.c
LIB_OBJ  := $(CORE_OBJ) $(BUILD)/gen/bands_shipped.o
MAIN_OBJ := $(BUILD)/tui/main.o
LIB      := $(BUILD)/libshardscope.a
BIN      := shardscope
# One cmocka program per module (tests/unit) and the screen goldens
# (tests/screen); shared fixtures and seams live in tests/support.
TEST_SRC := $(sort $(wildcard tests/unit/test_*.c tests/screen/test_*.c))
TEST_BIN := $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRC))
# Each fuzz harness also links with tests/fuzz/replay.c into a test program
# that replays its seed corpus (tests/fuzz/corpus/NAME).
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
TEST_BIN += $(patsubst tests/fuzz/fuzz_%.c,$(BUILD)/tests/fuzz/replay_%,$(FUZZ_SRC))
TEST_SUPPORT := $(patsubst %.c,$(BUILD)/%.o,$(wildcard tests/support/*.c))

# Include paths per folder.
INC_engine   :=
INC_presets  := -Iengine
INC_calib    := -Iengine
INC_out      := -Iengine
INC_term     :=
INC_explorer := -Iengine -Ipresets -Icalib -Itui/out -Itui/term -Itui/explorer
INC_cli      := -Iengine -Ipresets -Icalib -Itui/out -Itui/term -Itui/explorer -Itui/cli
INC_tests    := $(INC_cli) -Itests/support
inc_for = $(strip $(if $(filter engine/%,$1),$(INC_engine),\
            $(if $(filter presets/% $(BUILD)/gen/%,$1),-Ipresets $(INC_presets),\
            $(if $(filter calib/%,$1),-Icalib $(INC_calib),\
            $(if $(filter tui/out/%,$1),$(INC_out),\
            $(if $(filter tui/term/%,$1),$(INC_term),\
            $(if $(filter tui/explorer/%,$1),$(INC_explorer),\
            $(if $(filter tui/cli/% tui/main.c,$1),$(INC_cli),\
            $(INC_tests)))))))))

ALL_CFLAGS = $(CFLAGS) $(PKG_CFLAGS) -MMD -MP
LIBS = $(PKG_LIBS) -lpthread -lm
DEPS_STAMP := $(BUILD)/.deps-ok

# Test objects are built through a pattern chain; keep them (no rebuilds).
.SECONDARY:

.PHONY: all run test test-programs check-layers asan fuzz fuzz-build bench portable validate validate-kernels install uninstall clean deps test-deps
all: $(BIN)

deps: $(DEPS_STAMP)
$(DEPS_STAMP): mk/deps.sh
	@sh mk/deps.sh build
	@mkdir -p $(BUILD) && touch $@

test-deps: $(BUILD)/.test-deps-ok
$(BUILD)/.test-deps-ok: mk/deps.sh
	@sh mk/deps.sh test
	@mkdir -p $(BUILD) && touch $@

$(BUILD)/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(call inc_for,$<) $(if $(filter calib/%,$<),$(CUDA_CFLAGS)) -c $< -o $@

$(GEN_SRC): $(PRESET_JSON) mk/embed.sh
	@mkdir -p $(dir $@)
	sh mk/embed.sh $(PRESET_JSON) > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/presets_embedded.o: $(GEN_SRC)
	$(CC) $(ALL_CFLAGS) $(INC_presets) -Ipresets -c $< -o $@

$(CORE): $(CORE_OBJ)
	rm -f $@
	ar rcs $@ $^

# The generator links without -fsanitize=fuzzer (libFuzzer's own main).
$(BUILD)/gen/gen_bands: mk/gen_bands.c $(CORE) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(INC_presets) -Ipresets $(filter-out -fsanitize=fuzzer,$(LDFLAGS)) \
	  -o $@ $< $(CORE) $(LIBS)

$(BANDS_SRC): $(BUILD)/gen/gen_bands
	$(BUILD)/gen/gen_bands > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/bands_shipped.o: $(BANDS_SRC)
	$(CC) $(ALL_CFLAGS) $(INC_presets) -Ipresets -c $< -o $@

$(LIB): $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

$(BIN): $(MAIN_OBJ) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $(MAIN_OBJ) $(LIB) $(LIBS)

$(BUILD)/tests/%.o: tests/%.c | $(BUILD)/.test-deps-ok $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(INC_tests) $(CUDA_CFLAGS) $(CMOCKA_CFLAGS) -c $< -o $@

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(TEST_SUPPORT) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $< $(TEST_SUPPORT) $(LIB) $(CMOCKA_LIBS) $(LIBS)

run: $(BIN)
	./$(BIN)

test: $(BIN) $(TEST_BIN) | $(BUILD)/.test-deps-ok
	@sh mk/check_layers.sh
	@SHARDSCOPE_BIN=./$(BIN) sh mk/runtests.sh $(TEST_BIN)

# The unit and screen programs without the e2e scripts.
test-programs: $(TEST_BIN) | $(BUILD)/.test-deps-ok
	@sh mk/runtests.sh --no-e2e $(TEST_BIN)

check-layers:
	@sh mk/check_layers.sh

# gcc's ASan + UBSan over everything, then clang's UBSan over the test
# programs: it checks float-to-int casts (float-cast-overflow), gcc's does not.
CLANG       ?= clang
UBSAN_FLAGS := -fsanitize=undefined,float-cast-overflow -fno-sanitize-recover=all
asan:
	$(MAKE) BUILD=build-asan OPT="-O1 -g" \
	  EXTRA_CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	  EXTRA_LDFLAGS="-fsanitize=address,undefined" BIN=build-asan/shardscope test
	@sh mk/deps.sh clang
	$(MAKE) BUILD=build-ubsan CC=$(CLANG) OPT="-O1 -g" \
	  EXTRA_CFLAGS="$(UBSAN_FLAGS) -fno-omit-frame-pointer" \
	  EXTRA_LDFLAGS="$(UBSAN_FLAGS)" test-programs

# --- fuzzing (clang + libFuzzer; never part of make test) ------------------
# The library is built with clang into build-fuzz (never mixed with gcc
# objects) with -fsanitize=fuzzer-no-link; each tests/fuzz/fuzz_NAME.c links
# against it and runs FUZZ_SECONDS from tests/fuzz/corpus/NAME (mk/fuzz.sh).
FUZZ_SECONDS ?= 60
FUZZ_SAN     := -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all
FUZZ_BIN := $(patsubst tests/%.c,$(BUILD)/tests/%,$(FUZZ_SRC))

fuzz:
	@sh mk/fuzz.sh check $(CLANG)
	$(MAKE) BUILD=build-fuzz CC=$(CLANG) USE_CUDA=no OPT="-O1 -g" \
	  EXTRA_CFLAGS="-fsanitize=fuzzer-no-link $(FUZZ_SAN) -fno-omit-frame-pointer" \
	  EXTRA_LDFLAGS="-fsanitize=fuzzer $(FUZZ_SAN)" fuzz-build
	@sh mk/fuzz.sh run build-fuzz $(FUZZ_SECONDS)

fuzz-build: $(FUZZ_BIN)

$(BUILD)/tests/fuzz/%.o: tests/fuzz/%.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(INC_tests) -c $< -o $@

$(BUILD)/tests/fuzz/replay_%: $(BUILD)/tests/fuzz/fuzz_%.o $(BUILD)/tests/fuzz/replay.o $(LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/tests/fuzz/fuzz_%: $(BUILD)/tests/fuzz/fuzz_%.o $(LIB)
	$(CC) $(LDFLAGS) -o $@ $< $(LIB) $(LIBS)

validate: $(BIN)
	./$(BIN) validate

KERNEL_DATA ?= ../shared/reference/data
validate-kernels: $(BUILD)/tools/validate_kernels
	@if [ -d "$(KERNEL_DATA)" ]; then $(BUILD)/tools/validate_kernels $(KERNEL_DATA) $(VK_ARGS); \
	else echo "validate-kernels: no kernel data at $(KERNEL_DATA) (set KERNEL_DATA=DIR)"; fi

$(BUILD)/tools/validate_kernels: tests/tools/validate_kernels.c $(LIB) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(INC_tests) -o $@ $< $(LIB) $(LIBS)

# A binary for a bare GPU machine (calib/gpu_check.sh): CUDA dlopen'd, cJSON
# static (or bundled beside it), checked with readelf.
portable:
	@sh mk/portable.sh build-portable

bench: $(BIN)
	./$(BIN) bench
	@for b in tests/bench/bench_*.sh; do [ -f "$$b" ] && sh "$$b" ./$(BIN) || true; done

install: $(BIN)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/shardscope
	install -m 0644 tui/shardscope.1 $(DESTDIR)$(PREFIX)/share/man/man1/shardscope.1

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/shardscope $(DESTDIR)$(PREFIX)/share/man/man1/shardscope.1

clean:
	rm -rf build build-asan build-ubsan build-fuzz $(BIN)

-include $(LIB_OBJ:.o=.d) $(BUILD)/gen/gen_bands.d $(MAIN_OBJ:.o=.d) $(TEST_BIN:=.d) $(TEST_SUPPORT:.o=.d) $(FUZZ_BIN:=.d) $(BUILD)/tests/fuzz/replay.d
