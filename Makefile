# Ply — one non-recursive Makefile.
#   make                 release build of ./ply
#   make MODE=debug      debug build (-O0 -g, game invariant checks)
#   make MODE=sanitize   ASan + UBSan build
#   make test            every test (unit, conformance, perft, CLI, fuzz)
#   make test-slow       deeper perft and longer runs
#   make golden          rewrite tests/golden (seeded playthroughs)
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
else
  $(error MODE must be release, debug or sanitize)
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

.PHONY: all test test-slow run clean deps fuzz golden
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

# Fuzz targets: libFuzzer (clang) over every game's text parsers.
FUZZ_BIN := build/fuzz/fuzz_text
FUZZ_SRC := $(filter src/core/% src/games/% src/search/%,$(LIB_SRC))
$(FUZZ_BIN): tests/fuzz/fuzz_text.c $(FUZZ_SRC) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	clang -std=c11 -D_GNU_SOURCE -O1 -g -fsanitize=fuzzer,address,undefined \
		-Isrc -o $@ $< $(FUZZ_SRC) -lm -pthread
fuzz: $(FUZZ_BIN)

test: $(BUILD)/ply $(TEST_BIN) $(FUZZ_BIN)
	@PLY=$(BUILD)/ply BUILD=$(BUILD) FUZZ=$(FUZZ_BIN) sh tests/run-all.sh

test-slow: $(BUILD)/ply $(TEST_BIN)
	@PLY=$(BUILD)/ply BUILD=$(BUILD) PLY_SLOW=1 sh tests/run-all.sh

# Golden playthroughs: rewrite them after a change meant to alter them.
golden: $(BUILD)/ply
	@PLY=$(BUILD)/ply sh scripts/golden.sh

run: ply
	@if [ -t 0 ]; then ./ply play reversi; \
	else ./ply play reversi --demo; fi

clean:
	rm -rf build ply

-include $(LIB_OBJ:.o=.d) $(BUILD)/src/cli/main.d
