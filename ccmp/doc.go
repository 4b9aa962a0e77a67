// Package ccmp protects 802.11 MPDUs with CCMP-128 (IEEE 802.11-2020
// 12.5.3): CCM with AES-128, an 8-octet MIC and a 13-octet nonce built from
// the frame.
//
// Frames are encrypted and decrypted in place, in the caller's buffer:
//
//	// frame = MAC header | 8 bytes reserved for the CCMP header | body,
//	// with cap(frame) >= len(frame)+MICLen
//	pn, frame, err := key.Seal(frame)
//	// or: buf[off:] = MAC header | body, with 8 bytes of headroom
//	pn, frame, err := key.SealInHeadroom(buf, off)
//
//	pn, id, err := ccmp.ParseHeader(frame) // replay check before the work
//	body, err := key.Decrypt(frame)        // body aliases frame
//
// A Key owns its transmit PN: Seal takes the next one (LastPN+1), so the
// datapath, which seals each frame at the last moment before injection,
// never sends two frames under one (key, PN) pair, whatever it re-buffers
// or retries; LastPN is the Key RSC a group key's handshake hands out.
// Encrypt and EncryptInHeadroom take the PN as an argument, for callers
// that keep their own sequence and for the test vectors; they too refuse
// a frame already protected, and a Seal after them continues above the
// highest PN they used.
//
// Unicast robust management frames (802.11w: Deauthentication,
// Disassociation, robust Action frames) go through SealMgmt and OpenMgmt,
// which refuse anything but a unicast management frame (group-addressed
// ones take BIP's MME instead) and, for OpenMgmt, check the PN against
// the Replay's management counter before decrypting and record it after;
// Open does the same for any MPDU.
//
// The additional authenticated data and the nonce follow 12.5.3.3.3 and
// 12.5.3.3.4: Frame Control with the subtype bits b4-b6 of data frames,
// Retry, Power Management and More Data masked and Protected set, Order
// masked in QoS data frames (their HT Control field is never
// authenticated); the Sequence Number masked, the Fragment Number kept; A4
// when present; of QoS Control only the TID (the A-MSDU Present bit too is
// masked: SPP A-MSDU is not negotiated). The nonce carries the TID as its
// priority and, for management frames (802.11w robust management frames),
// the Management flag.
//
// A Key allocates nothing per frame and keeps scratch state: one goroutine
// at a time. Receive replay counters (Replay) follow mac80211: one per TID,
// non-QoS data with TID 0, management frames apart.
package ccmp
