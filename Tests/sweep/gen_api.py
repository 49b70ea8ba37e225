#!/usr/bin/env python3
"""Writes the sweep's api.txt: one line per exported rx_ function with its C signature.

Usage: gen_api.py include/rxc.h EXPORTS > build/sweep/api.txt   (make build/sweep/api.txt)
EXPORTS is `nm -D --defined-only librxc.so` output (or a list of names): only functions
the library exports get an entry, so api.txt always matches the binary it was made for.

Line format (space separated):  RET NAME [PARAM ...]
  PARAM = pname:type[:flag,flag...]   types have spaces replaced by '_' ("const_char*")
  flags: null_ok      NULL is a valid argument (no NULL case)
         null_silent  NULL must not crash but needs no error (rx_release(NULL))
         any          any handle kind is accepted (no wrong-kind cases)
         sort=a|b     the handle must be of one of these sorts (others are wrong-kind cases)
         vkind=a|b    the rx_value must be of one of these kinds (values of other kinds are cases)
         str=TEXT     a valid value for a string parameter (default "sweep")
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'scripts'))
import rxc_header  # noqa: E402  (the one reader of include/rxc.h)

# Semantics the C types cannot carry. Keyed by (function, parameter) or ('*', parameter).
OVERRIDES = {
    ('*', 'ctx'): ['null_ok'],
    ('*', 'ctx_free'): ['null_ok'],
    ('*', 'destroy'): ['null_ok'],
    ('*', 'out_error'): ['null_ok'],
    ('*', 'label'): ['null_ok'],
    ('rx_error_new', 'message'): ['null_ok'],
    ('rx_ptr', 'p'): ['null_ok'],
    ('rx_object', 'data'): ['null_ok'],
    ('rx_value_bytes', 'len'): ['null_ok'],
    ('rx_distinct_until_changed', 'eq'): ['null_ok'],
    ('rx_combine_latest', 'fn'): ['null_ok'],
    ('rx_zip', 'fn'): ['null_ok'],
    ('rx_with_latest_from', 'fn'): ['null_ok'],
    ('rx_repeat_element', 'scheduler'): ['null_ok'],
    ('rx_generate', 'scheduler'): ['null_ok'],
    ('rx_rate_limit', 'opts'): ['null_ok'],
    ('rx_using', 'release'): ['null_ok'],
    ('rx_debug', 'out'): ['null_ok'],
    ('rx_release', 'handle'): ['null_silent', 'any'],
    ('rx_retain', 'handle'): ['any'],
    ('rx_serial_disposable_set', 'serial'): ['sort=serial'],
    ('rx_single_assignment_disposable_set', 'sa'): ['sort=single_assignment'],
    ('rx_composite_disposable_add', 'composite'): ['sort=composite'],
    ('rx_test_scheduler_advance_to', 'scheduler'): ['sort=test'],
    ('rx_test_scheduler_advance_by', 'scheduler'): ['sort=test'],
    ('rx_test_scheduler_run', 'scheduler'): ['sort=test'],
    ('rx_subject_value', 'subject'): ['sort=behavior|behavior_relay'],
    ('rx_connect', 'connectable'): ['sort=connectable'],
    ('rx_ref_count', 'connectable'): ['sort=connectable'],
    ('rx_drive', 'driver'): ['sort=driver'],
    ('rx_flow_stats_get', 'bounded'): ['sort=bounded'],
    ('rx_group_key', 'group'): ['sort=group'],
    ('rx_emit', 'signal'): ['sort=signal'],
    ('rx_recurse', 'self'): ['sort=recursive'],
    ('rx_recurse_after', 'self'): ['sort=recursive'],
    ('rx_subscribe_single', 'on_success'): ['null_ok'],
    ('rx_subscribe_single', 'on_error'): ['null_ok'],
    ('rx_subscribe_single', 'on_disposed'): ['null_ok'],
    ('rx_subscribe_maybe', 'on_success'): ['null_ok'],
    ('rx_subscribe_maybe', 'on_error'): ['null_ok'],
    ('rx_subscribe_maybe', 'on_completed'): ['null_ok'],
    ('rx_subscribe_maybe', 'on_disposed'): ['null_ok'],
    ('rx_subscribe_completable', 'on_completed'): ['null_ok'],
    ('rx_subscribe_completable', 'on_error'): ['null_ok'],
    ('rx_subscribe_completable', 'on_disposed'): ['null_ok'],
    ('rx_value_int', 'v'): ['vkind=int'],
    ('rx_value_double', 'v'): ['vkind=double'],
    ('rx_value_bool', 'v'): ['vkind=bool'],
    ('rx_value_ptr', 'v'): ['vkind=ptr'],
    ('rx_value_string', 'v'): ['vkind=string'],
    ('rx_value_bytes', 'v'): ['vkind=bytes'],
    ('rx_array_count', 'v'): ['vkind=array'],
    ('rx_array_get', 'v'): ['vkind=array'],
    ('rx_object_data', 'v'): ['vkind=object'],
    ('rx_value_observable', 'v'): ['vkind=observable'],
    ('rx_value_event_kind', 'v'): ['vkind=event_next|event_error'],
    ('rx_value_event_value', 'v'): ['vkind=event_next'],
    ('rx_value_event_error', 'v'): ['vkind=event_error'],
    ('rx_marble_cold', 'test'): ['sort=test'],
    ('rx_marble_hot', 'test'): ['sort=test'],
    ('rx_marble_expect', 'test'): ['sort=test'],
    ('rx_marble_cold', 'error'): ['null_ok'],
    ('rx_marble_hot', 'error'): ['null_ok'],
    ('rx_marble_expect', 'error'): ['null_ok'],
    ('*', 'marble'): ['str=-a-|'],
    # the sweep's default source is rx_just(rx_int(1)), and 'a' stands for rx_int(1)
    ('rx_marble_expect', 'expected'): ['str=(a|)'],
}


def norm_type(t):
    t = re.sub(r'\s*\*\s*', '*', t.strip())
    t = re.sub(r'\s+', '_', t)
    return t


def param_field(ptype, pname, index):
    """(name, type) as api.txt writes them: an inline function pointer is 'fnptr', an
    unnamed parameter 'argN'."""
    if '(*)' in ptype:
        return pname, 'fnptr'
    if not ptype.strip():
        return 'arg%d' % index, norm_type(pname)
    return pname, norm_type(ptype)


def main():
    header, exports_file = sys.argv[1], sys.argv[2]
    exported = set(re.findall(r'\brx_\w+', open(exports_file).read()))
    lines = []
    for f in rxc_header.functions(header):
        if f.name not in exported:
            continue
        fields = [norm_type(f.returns), f.name]
        for i, (ptype, pname) in enumerate(f.params):
            pname, ptype = param_field(ptype, pname, i)
            flags = OVERRIDES.get((f.name, pname)) or OVERRIDES.get(('*', pname)) or []
            fields.append(':'.join([pname, ptype] + ([','.join(flags)] if flags else [])))
        lines.append(' '.join(fields))
    print('# Generated by Tests/sweep/gen_api.py from include/rxc.h and the library exports.')
    print('# RET NAME [pname:type[:flags]]...  (see gen_api.py for the flags)')
    print('\n'.join(lines))
    missing = sorted(exported - {l.split()[1] for l in lines})
    if missing:
        sys.exit('exported but not declared in the header: ' + ' '.join(missing))


main()
