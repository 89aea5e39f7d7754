/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The TRACE_EVENT marker-bench compares a marker event with: the same
 * one int field, and the same print format as MARK(marker_bench_k, ...).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM marker_bench

#if !defined(_MARKER_BENCH_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _MARKER_BENCH_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(marker_bench_ev,
	    TP_PROTO(int v),
	    TP_ARGS(v),
	    TP_STRUCT__entry(__field(int, v)),
	    TP_fast_assign(__entry->v = v;),
	    TP_printk("v=%d", __entry->v)
);

#endif /* _MARKER_BENCH_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE marker_bench_trace
#include <trace/define_trace.h>
