# Ply — one non-recursive Makefile.
#   make                 release build of ./ply
#   make MODE=debug      debug build (-O0 -g, game invariant checks)
#   make MODE=sanitize   ASan + UBSan build
#   make MODE=tsan       ThreadSanitizer build (threaded bots, the server)
#   make fuzz            the libFuzzer targets (build/fuzz/fuzz_*)
#   make test            every test (unit, conformance, perft, CLI, fuzz)
#   make test-slow       deeper perft and longer runs
#   make run             the main job: play against the strongest bot
MODE ?= release
BUILD := build/$(MODE)
CC ?= cc
CFLAGS_COMMON := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wno-unused-parameter \
	-Wshadow -Wstrict-prototypes -MMD -MP -pthread
ifeq ($(MODE),release)
  CFLAGS_MODE := -O2 -march=native -DNDEBUG -g
else ifeq ($(MODE),debug)
  CFLAGS_MODE := -O0 -g3 -DPLY_DEBUG
else ifeq ($(MODE),sanitize)
  CFLAGS_MODE := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined -DPLY_DEBUG
  LDFLAGS_MODE := -fsanitize=address,undefined
else ifeq ($(MODE),tsan)
  CFLAGS_MODE := -O1 -g -fsanitize=thread -fno-omit-frame-pointer -DPLY_DEBUG
  LDFLAGS_MODE := -fsanitize=thread
else
  $(error MODE must be release, debug, sanitize or tsan)
endif
CFLAGS := $(CFLAGS_COMMON) $(CFLAGS_MODE) $(EXTRA_CFLAGS)
LDLIBS := -lmicrohttpd -ljansson -lsqlite3 -lcurl -lm -pthread

LIB_SRC := $(sort $(wildcard src/core/*.c src/games/*.c src/games/*/*.c \
	src/search/*.c src/tools/*.c src/proto/*.c src/server/*.c src/cli/*.c))
LIB_SRC := $(filter-out src/cli/main.c,$(LIB_SRC))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
TEST_SRC := $(sort $(wildcard tests/unit/test_*.c))
TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
DEPS_STAMP := build/.deps-ok

.PHONY: all test test-slow run clean deps fuzz
all: ply

# Debian packages the build needs (installed once; see the script).
$(DEPS_STAMP): scripts/install-deps.sh
	@sh scripts/install-deps.sh
	@mkdir -p build && touch $@
deps: $(DEPS_STAMP)

$(BUILD)/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/libply.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/ply: $(BUILD)/src/cli/main.o $(BUILD)/libply.a
	$(CC) $(LDFLAGS_MODE) -o $@ $^ $(LDLIBS)

ply: $(BUILD)/ply
	@if [ "$(MODE)" = release ]; then cp $(BUILD)/ply ply.tmp && mv -f ply.tmp ply; fi

$(BUILD)/tests/%: tests/unit/%.c tests/unit/testlib.h $(BUILD)/libply.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Isrc -o $@ $< $(BUILD)/libply.a $(LDFLAGS_MODE) \
		$(LDLIBS) -lcmocka

# Fuzz targets (tests/fuzz/fuzz.h): every tests/fuzz/fuzz_NAME.c is a
# libFuzzer binary build/fuzz/fuzz_NAME, linked with a copy of the library
# built by clang with coverage instrumentation, ASan and UBSan.
FUZZ_DIR := build/fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS := -std=c11 -D_GNU_SOURCE -O1 -g -pthread -MMD -MP $(FUZZ_SAN)
FUZZ_OBJ := $(LIB_SRC:%.c=$(FUZZ_DIR)/obj/%.o)
FUZZ_BINS := $(patsubst tests/fuzz/%.c,$(FUZZ_DIR)/%,\
	$(sort $(wildcard tests/fuzz/fuzz_*.c)))
$(FUZZ_DIR)/obj/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@
$(FUZZ_DIR)/libply.a: $(FUZZ_OBJ)
	@rm -f $@
	ar rcs $@ $^
$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(FUZZ_DIR)/libply.a
	clang $(FUZZ_CFLAGS) -Wall -Wextra -fsanitize=fuzzer -Isrc -o $@ $< \
		$(FUZZ_DIR)/libply.a $(LDLIBS)
fuzz: $(FUZZ_BINS)

test: $(BUILD)/ply $(TEST_BIN) $(FUZZ_BINS)
	@PLY=$(BUILD)/ply BUILD=$(BUILD) FUZZ=$(FUZZ_DIR) sh tests/run-all.sh

test-slow: $(BUILD)/ply $(TEST_BIN)
	@PLY=$(BUILD)/ply BUILD=$(BUILD) PLY_SLOW=1 sh tests/run-all.sh

run: ply
	@if [ -t 0 ]; then ./ply play reversi; \
	else ./ply play reversi --demo; fi

clean:
	rm -rf build ply

-include $(LIB_OBJ:.o=.d) $(BUILD)/src/cli/main.d $(FUZZ_OBJ:.o=.d)
