// Package metrics exports the core's state to Prometheus over HTTP.
//
// It reads the core only through the control protocol: each scrape sends
// one snapshot request (ctl.OpSnapshot) to the loop that owns the core and
// turns the reply into metrics, so /metrics shows what `airqctl status`
// and its siblings show, taken at one instant, and a loop that does not
// answer fails the scrape rather than serving stale numbers.
//
// The core's counters come from the table of package counter: one metric
// family per counter.Family, one series per entry, so every counter that
// `airqctl status` prints is exported under the name the table gives it.
// The per-station, per-AC, scheduler, scan and beacon families keep their
// own shapes, built from the snapshot's other sections; the TAP's offload
// events come from the shell (Options.TAP).
package metrics
