// Package bss is one network of an access point: what makes a BSS what it
// is, apart from the radio that carries it. It holds the pieces that belong
// to one BSS and none to the radio: its access lists, its legacy rate set
// and the HT/VHT elements it advertises, the optional announcements of its
// beacons and probe responses, the capability bits and ERP element that
// follow its associated stations, its WMM parameters, the DTIM count of its
// beacons, the rules its association requests are held to, and the index of
// its station table (addresses to AIDs, free AIDs lowest first, and the
// admission's eviction lists).
//
// It is pure: no goroutines, no system calls, time passed in where needed.
// Package ap, the radio's core, holds the BSS's state through these types
// and drives it; bss never imports ap.
package bss
