// Package bss is one network of an access point, apart from the radio that
// carries it. BSS holds a network's state: its BSSID and Profile (SSID,
// intervals, WMM, announcements, RSNE), its access lists, its station
// table's index (addresses to AIDs, the admission's eviction lists), the
// counts behind its Capability field and ERP element, its DTIM count and
// TIM, its reply airtime budget, the senders it knows and the record of
// whom it answered, the sequence numbers of its management frames, and the
// counters of what it answered and admitted (Counts).
// Station is its record of a station (how far it has come, when, what it
// announced, its RSN and SAE state), which its table binds to the AID,
// and the BSS keeps the books of its stations' admission and power save
// (admit.go).
// From these it makes the elements of its beacons and probe responses,
// around what the radio gives (Air: the channel, the Country element, the
// channel's load), and decides which probe requests it answers. Beside it:
// the access lists' rules, the pre-shared keys (PSKSet: the PMKs of
// wpa_psk_file, wpa_psk and wpa_passphrase, in the order they are tried),
// the rate set and HT/VHT elements, the rules an association request's
// elements are held to.
//
// A BSS reaches the radio that carries it through Radio (a management
// frame to build and send within its reply budget, the TSF, the radio's
// part of its announcements, whether frames wait in the radio's queues
// for a station or for the group): it answers probe requests that way,
// builds its beacon's body and TIM, and makes its authentication and
// association responses, deauthentications, disassociations and replies
// to strangers.
//
// It is pure: no goroutines, no system calls, time passed in. Package ap,
// the radio's core, holds a radio's BSSes and drives them; bss never
// imports ap.
package bss
