# The two commands a fresh machine needs:  make run   and   make test
# Everything installs into .venv in the repository root; nothing is fetched at run time.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP_RUN := $(VENV)/.installed-run
STAMP_DEV := $(VENV)/.installed-dev
SAMPLE ?= Daybreak'te kaç Krizde Topluluk jetonunda oyunu kaybederiz?

.PHONY: run test install dev build serve eval calibrate fit-choice bench lint clean

run: $(STAMP_RUN)  ## install, build the index on the bundled corpus, answer a sample question
	$(BIN)/hakem build
	$(BIN)/hakem ask "$(SAMPLE)"
	@echo
	@echo "Start the service:  $(BIN)/hakem serve   (then open http://127.0.0.1:8000/)"
	@echo "Ask from the shell: $(BIN)/hakem ask \"rebirth'te kale kac puan\""

test: $(STAMP_DEV)  ## lint, type-check and run the whole test suite
	$(BIN)/ruff check service eval tests bench
	$(BIN)/mypy
	$(BIN)/pytest

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(STAMP_RUN): pyproject.toml | $(VENV)/bin/python
	$(BIN)/pip install --quiet -e .
	touch $@

# The dev install adds the sentence-transformers extra (torch pinned to the 2.13.0 CPU build).
$(STAMP_DEV): pyproject.toml | $(VENV)/bin/python
	$(BIN)/pip install --quiet -e '.[dev,st]'
	touch $@ $(STAMP_RUN)

install: $(STAMP_RUN)
dev: $(STAMP_DEV)

build: $(STAMP_RUN)
	$(BIN)/hakem build

serve: $(STAMP_RUN)
	$(BIN)/hakem serve

DEV_SET ?= ../shared/eval/dev.jsonl

eval: $(STAMP_RUN)  ## the quality tables: dev (when present) and the blind-written sets in eval/
	@if [ -f "$(DEV_SET)" ]; then $(BIN)/hakem eval "$(DEV_SET)" --compare || exit 1; \
	else echo "skipping the dev set: $(DEV_SET) is not in this clone (set DEV_SET=...)"; fi
	for set in eval/probe*.jsonl; do $(BIN)/hakem eval $$set --compare || exit 1; done

# The answerability model, fitted on these question sets and reported leave-one-set-out.
# Named one by one: a set written blind (eval/probe11.jsonl) joins only after its blind run.
# Every read probe set is fitted on. Session 8 compared this model, each of probe11-18 held
# out in turn, with the one fitted on probe..probe10 (eval/README, "Session 8"): unanswerable
# handled 0.656 -> 0.688, answerable refused 0.016 -> 0.014, answerable hedged 0.186 -> 0.169.
# Session 10 added probe19-23 (eval/README, "Session 10"), session 13 probe24-29 ("Session 13");
# session 14 probe30 (read in session 13); session 15 probe31 and situations26; session 16
# probe32-33 and situations27-28 (read in session 15); session 18 probe35-36 and
# situations30-31 (read in sessions 17-18). Session 25 tried adding probe37-49: leave-one-set-
# out on the 38 sets fitted before, unanswerable handled 0.863 -> 0.877 and answerable refused
# 0.010 -> 0.009, but on blind probe50 it refused 2 answerable questions the shipped model
# answers (0 -> 0.029), handling no more unanswerable ones (11 of 12 either way); not kept
# (eval/README, "Session 25").
FITTED := probe probe2 probe3 probe4 probe5 probe6 probe7 probe8 probe9 probe10 probe11 probe12 \
  probe13 probe14 probe15 probe16 probe17 probe18 probe19 probe20 probe21 probe22 probe23 \
  probe24 probe25 probe26 probe27 probe28 probe29 probe30 probe31 probe32 probe33 probe34 \
  probe35 probe36
SETS := ../shared/eval/dev.jsonl ../shared/eval/dev2.jsonl $(FITTED:%=eval/%.jsonl)
calibrate: $(STAMP_DEV)  ## refit corpus/answerability.json (the shipped model) on the question sets
	$(BIN)/python -m hakem_eval.calibrate $(SETS) --write

# The answer-sentence model, fitted on every read set's evidence sentences and reported
# leave-one-set-out (eval/README, "Session 12"). A blind set joins after its blind run.
# Session 25 tried adding probe37-49 and situations32-44: leave-one-set-out on the 70 sets
# fitted before went 0.727 -> 0.725; not refitted.
CHOICE_SETS := ../shared/eval/dev.jsonl ../shared/eval/dev2.jsonl eval/paraphrase.jsonl \
  $(FITTED:%=eval/%.jsonl) eval/situations.jsonl \
  $(foreach n,2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31,eval/situations$(n).jsonl)
fit-choice: $(STAMP_DEV)  ## refit corpus/sentences.json (the answer-sentence model)
	$(BIN)/python -m hakem_eval.fit_choice $(CHOICE_SETS) --write

bench: $(STAMP_DEV)  ## speed, load and memory on this machine (about 10 minutes)
	$(BIN)/python bench/run.py

lint: $(STAMP_DEV)
	$(BIN)/ruff check service eval tests bench
	$(BIN)/mypy

clean:
	rm -rf $(VENV) index/current index/builds
