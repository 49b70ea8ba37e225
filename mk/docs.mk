# The API reference: build/docs/index.html, generated from include/rxc.h's comments, with a
# marble diagram (build/docs/marbles/*.svg) for every operator, drawn from what the operator
# did when run on the test scheduler of the built library (cffi's ABI mode, no compiler).
# cffi comes from PyPI when missing (ensure-cffi, mk/ffi.mk). Then the Python package's
# reference, build/docs/python (mk/python.mk, in build/python's venv).
#   make docs    fails on an exported function without a comment (or with an @param it does
#                not have), an operator with neither a diagram nor a stated reason, or an
#                SVG that is not well-formed XML
PYTHON ?= python3
DOCS_DIR ?= build/docs

.PHONY: docs
## make docs  the HTML API reference build/docs/index.html from rxc.h, a marble diagram per operator
docs: all ensure-cffi python-deps
	$(Q)CC=$(CLANG) timeout 120 $(PYTHON) scripts/docs/gen_docs.py include/rxc.h $(LIB_LINK) $(DOCS_DIR)
	$(python_docs)
