# Which source files run for one event, measured: gdb steps one rx_subject_on_next of
# subject_map.c instruction by instruction (between the two calls of `marker`) and prints
# each function it passes through, with its inlined callers and the file of its code.
#   cc -O1 -g -Iinclude Tests/perf/path/subject_map.c -o build/perf/subject_map \
#      -Lbuild/lib -lrxc -Wl,-rpath,$PWD/build/lib
#   gdb -q -batch -x Tests/perf/path/trace.py build/perf/subject_map 2>/dev/null | grep -E '^(STEP|TOTAL)'
# Specializations of RxCore code compiled into RxC carry no line table of their own: name
# them by the function (`swift demangle`), as docs/ARCHITECTURE.md does.
import gdb

gdb.execute("set pagination off")
gdb.execute("break marker")
gdb.execute("run")
gdb.execute("finish")
steps = []
total = 0
while total < 20000:
    gdb.execute("stepi", to_string=True)
    total += 1
    frame = gdb.selected_frame()
    name = frame.name() or "?"
    if name == "marker":
        break
    chain = []
    f = frame
    while f is not None and f.type() == gdb.INLINE_FRAME:
        f = f.older()
        if f is not None:
            chain.append(f.name() or "?")
    sal = gdb.find_pc_line(frame.pc())
    where = sal.symtab.filename.split("/Sources/")[-1] if sal.symtab else "-"
    if steps and steps[-1][0] == name:
        steps[-1][2] += 1
    else:
        steps.append([name, where, 1, chain])
for name, where, n, chain in steps:
    print("STEP %3d %-40s %s%s" % (n, where, name, "  (inlined in " + chain[0] + ")" if chain else ""))
print("TOTAL", total - 1, "instructions")
gdb.execute("kill")
