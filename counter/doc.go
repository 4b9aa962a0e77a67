// Package counter is the contract of the core's counters: one table that
// names each of them once, for every reader.
//
// The core keeps its counters in a Set, a fixed array indexed by ID, so that
// counting costs what a struct field does (c[counter.RxFrames]++) and never
// allocates. The control protocol carries the Set in its status reply, each
// entry under its Key (package ctl: the text form and JSON alike); the
// Prometheus exporter (package metrics) turns each Family into one metric
// family, each entry one series of it. A counter added to the table is
// therefore shown by `airqctl status`, `airqctl -json status` and /metrics
// without a second list to keep in step.
//
// The families follow two rules, so that a dashboard can sum any family
// without counting a frame twice:
//
//   - A total lives in a family of its own (airq_rx_frames_total), never as
//     a label value beside its parts.
//   - The members of a family are disjoint. Families of frames lost use the
//     label reason, with one set of reason names (the Reason constants)
//     wherever the same cause drops a frame.
package counter
