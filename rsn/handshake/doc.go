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
// Where hostapd lets a frame anyone can forge change a station's machine,
// or lets a GTK rekey cost a station group frames, the authenticator does
// otherwise; a forged frame must change nothing, and a rekey must lose no
// group frame:
//
//   - A message 2 is checked against the candidate PMKs as it arrives. One
//     that verifies under none (a wrong passphrase, or a forged frame) is
//     counted and dropped, reported (ActPSKMismatch) once per replay
//     counter, and its counter stays open for the station's own answer;
//     hostapd takes it into PTKCALCNEGOTIATING first, so a forged message
//     2 that beats the station's costs it a retransmission, and repeated,
//     the association. What checking costs is bounded instead (below).
//   - The SNonce-update workaround (a message 2 with a new SNonce answering
//     an earlier message 1 while message 3 is out) starts only for a
//     message 2 that verifies. hostapd starts it for any frame that looks
//     like one, even one it then drops for its Key Ack or missing MIC bit,
//     after which the station's real message 4 is refused and the
//     handshake ends as a wrong passphrase. PTKSTART also forgets the
//     previous PTK (hostapd keeps PTK_valid), so no message 2 is checked
//     against a stale one.
//   - With Extended Key ID, when message 4 answers the message 3 of the
//     earlier SNonce (wpa_try_alt_snonce), that PTK's TK is installed for
//     receive again before the key ID is activated; hostapd activates the
//     key ID holding the later message 3's TK, which the station lacks.
//     And such a message 4 is checked under the PMK the earlier message 2
//     verified under, not under every candidate as hostapd does.
//   - A station whose 4-way handshake is under way when a GTK rekey starts,
//     with a message 3 carrying the GTK in use out or a PTK rekey of its
//     own, gets the new GTK by a group handshake once message 4 is in, and
//     the AP switches only then; a station whose message 3 goes out while
//     a rekey waits gets the GTK and IGTK the AP sends with, with their
//     Key RSC and IPN, then the new ones. hostapd skips such stations
//     ("Not in PTKINITDONE"), and its message 3 carries the new GTK with
//     that key ID's RSC, so either way the station reads no group frame
//     for a while. The price: the switch can wait for a joining station's
//     handshake as well (its message 3 retries, then the group handshake);
//     a station removed meanwhile lets it go on at once.
//   - A GTK rekey asked for while one waits for stations (wpa_group_rekey,
//     wpa_strict_rekey) starts once the AP has switched; hostapd enters
//     SETKEYS again at once, putting a new key under the key ID the AP
//     still sends with, which the stations that answered do not have.
//
// And where hostapd acts on requests a station can repeat at will:
//
//   - A Michael MIC failure report (an EAPOL-Key request with the Error
//     bit) is counted and ignored: Michael is TKIP's, and a CCMP station
//     has nothing to report. hostapd rekeys the PTK, which without Extended
//     Key ID is a gap in the station's traffic, and under
//     wpa_deny_ptk0_rekey its disconnection.
//   - A station's request for a GTK rekey is honoured at most once per
//     10 s (Counters.RekeyRequestsIgnored): each costs every station a
//     group key handshake.
//   - The failure cause of a handshake that timed out after MIC mismatches,
//     or that the station left (Station.MismatchCause), says "wrong
//     passphrase likely" only when every mismatched message 2 answered the
//     latest message 1 in PTKSTART, as a station with the wrong
//     passphrase does; otherwise it names forged frames too.
//
// Other differences:
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
// # What a message 2 may cost
//
// A message 2 costs a derivation and a MIC under each candidate PMK until
// one verifies, and anyone who heard message 1 can send one: under 256
// wildcard PSKs, 0.5 to 0.7 ms of a 2-core test machine's core
// (BenchmarkForgedMsg2; only the KCK is derived per candidate,
// rsn.MICChecker, and nothing is allocated). hostapd pays one such loop per message 1 it sent: once a
// message 2 passes the header checks it invalidates the outstanding
// replay counters, so a forged frame that wins the race spoils the
// station's answer. Checking each message 2 as it comes keeps the
// station's answer good whatever came first, so the work is bounded
// otherwise (budget.go), every refusal counted (Counters):
//
//   - An exact repeat of a message 2 that failed (its replay counter,
//     SNonce and MIC, of the last four per station) is dropped unchecked.
//   - A station gets two checks per message 1 sent (its answer, and a
//     new SNonce's), refilled by the next message 1.
//   - The BSS gets Config.Message2Work PMK tries per second (a tenth of
//     a second's worth saved up at most), charged as they are made. Only
//     a station's first check for a message 1, while none of its messages
//     2 has failed since it associated, may use the lower half of what is
//     saved: an attacker's own associations get one such check each, the
//     rest of their forged frames compete for the upper half. A station
//     whose first check finds nothing left is owed one, and stations that
//     associated after it are held to the upper half until it gets it, so
//     that under a flood of new associations its answer to the next
//     message 1 finds the lower half.
//
// The trade-off: an attacker who races a station's answer with two
// distinct forged frames spoils that message 1's round, and the station
// completes on the retransmission unless the attacker races every retry,
// as with hostapd; raced once, the station's later checks compete for
// the upper half with whatever else is forged. A flood cannot take more
// than the budget, about 2 % of a core, whatever it sends:
// BenchmarkForgedMsg2Flood in package ap, 1,000 distinct forged messages
// 2 a second from eight associations re-made every 5 ms under 256
// wildcard PSKs, where a station joining meanwhile completes
// (TestForgedMessage2FloodLegitimateStation). A configuration with many
// wildcard PSKs admits fewer handshakes per second (32 under 256).
//
// # What the handshakes do not protect against
//
//   - Several PSKs (wpa_psk_file): message 2 is tried under each
//     candidate PMK in turn, as hostapd does, so the time to message 3
//     tells an observer roughly which entry matched. Keep the wildcard
//     entries few.
//   - Insiders: a station that knows the passphrase derives the PTK of
//     every other station under it from their 4-way handshakes (which,
//     without MFP, a forged deauthentication provokes), and every station
//     holds the GTK, so it can read and forge their traffic and group
//     frames; it can also ask for GTK rekeys (limited, above) and PTK
//     rekeys of its own. Per-station PSKs (wpa_psk_file) keep the PTKs
//     apart, not the GTK.
//
// Neither side is safe for concurrent use. Types holding keys print
// redacted.
package handshake
