// Package handshake runs the 4-way and group key handshakes of
// WPA2-Personal as pure state machines: time is an argument, nothing does
// I/O, and what the caller must do comes out as Actions (frames to send,
// keys to install, results). Two sides are here.
//
// The Authenticator is hostapd 2.10's src/ap/wpa_auth.c ported state by
// state, for the PSK AKMs and CCMP: the WPA_PTK and WPA_PTK_GROUP machines
// of each station and the group machine of the BSS, with the same flags
// and step loop, wpa_receive's acceptance rules (replay counters of the
// last four messages sent, the SNonce-update workaround, MIC checks in
// constant time) and wpa_send_eapol's timers: 4 tries per message
// (wpa_pairwise_update_count, wpa_group_update_count), the first
// retransmission after 100 ms when TX status is available (500 ms for the
// group message), re-armed to 1 s once message 1 is acknowledged, 1 s
// after that; wpa_disable_eapol_key_retries (4 s, no retransmission of
// message 3 and group message 1). Every handshake draws a fresh ANonce,
// the replay counter only grows, the TK is installed once per handshake.
//
//	a, _ := handshake.New(cfg)
//	a.Start(now)                           // first GTK: ActInstallGTK
//	s := a.Join(now, spa, negotiated, nil) // after Policy.Validate said 0
//	s.Start(now)                           // the association response was acked
//	s.Receive(now, eapol)                  // an EAPOL frame from the station
//	s.TXStatus(now, acked)                 // echo of the last EAPOL frame sent
//	a.Tick(now)                            // at a.Deadline()
//	a.Drain(func(act handshake.Action) { ... })
//
// The Supplicant is the station's side after wpa_supplicant's
// src/rsn_supp/wpa.c: it answers messages 1 and 3 and group message 1,
// installs each key once, and checks the replay counter, the ANonce and
// the AP's RSNE; it is there for the simulator's stations and the tests,
// which run both sides against each other and against recorded hostapd
// and iwd frames.
//
// # Where the authenticator differs from hostapd
//
//   - Group keys come straight from the random source (hostapd expands
//     them from its GMK with a PRF), and are not drawn again when the
//     first station arrives (hostapd's wpa_group_ensure_init, an entropy
//     measure).
//   - When the last station a GTK rekey waits for is removed, the rekey
//     completes at once; hostapd waits for its next event.
//   - A station's request for a GTK rekey while one is under way leaves
//     the wpa_group_rekey timer armed; hostapd cancels it without
//     re-arming, which stops periodic rekeying.
//   - Each station has one retransmission timer; hostapd's event loop can
//     hold two in corner cases (a new message while a timeout is pending).
//   - Only WPA-PSK and WPA-PSK-SHA256 with CCMP: no PMKSA caching, FT,
//     FILS, OCV, WPA1 or TKIP.
//
// Neither side is safe for concurrent use. Types holding keys print
// redacted.
package handshake
