// Package airq is a userspace 802.11 access point dataplane: it drives a
// radio through an active monitor interface, schedules every downlink frame
// by airtime and bridges data to a TAP interface.
//
// This root package holds no code; its tests enforce the repository's rules
// (formatting and the import layers of ARCHITECTURE.md).
package airq
