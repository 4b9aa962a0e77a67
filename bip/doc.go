// Package bip protects group-addressed robust management frames with
// BIP-CMAC-128 (IEEE 802.11-2020 12.5.4): the frame stays in clear and
// ends with a Management MIC element (MME: Key ID, a 6-octet IPN and the
// low 64 bits of AES-128-CMAC under the IGTK over the masked header and
// the body).
//
//	k, _ := bip.New(igtk, 4)          // IGTK key IDs are 4 and 5
//	// frame = MAC header | body, with cap(frame) >= len(frame)+bip.MMELen
//	ipn, frame, err := k.Sign(frame)  // a broadcast Deauthentication, say
//
//	var r bip.Receiver                // a station's side
//	r.Install(k, ipnFromKDE)
//	body, err := r.Open(frame)        // body aliases frame, without the MME
//
// A Key owns its transmit IPN as a ccmp.Key owns its PN: Sign takes
// LastIPN+1, and LastIPN is what the IGTK KDE of message 3 and group
// message 1 hands out. The Receiver keeps the last IPN accepted per key
// ID and accepts only strictly larger ones, checked before the MIC is
// computed and recorded after it verified; a frame refused for any reason
// (no MME, an unknown key ID, a replay, a bad MIC) changes nothing.
//
// The AAD and the MIC input follow mac80211 and hostapd (net/mac80211/
// wpa.c bip_aad, wlantest bip_protect): Frame Control with Retry, Power
// Management and More Data masked, A1, A2 and A3, then the frame after
// its 24-octet header with the MIC field zeroed. Sign and Open accept only
// unprotected group-addressed management frames: unicast robust
// management frames are encrypted under the PTK (ccmp.Key.SealMgmt).
// Which frames are robust, and so signed, is the caller's call (package
// pmf says); beacons go unprotected (no beacon protection).
//
// Nothing here allocates per frame; a Key keeps scratch state, so one
// goroutine at a time.
package bip
