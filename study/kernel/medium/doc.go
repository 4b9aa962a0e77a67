// Package medium is the air between mac80211_hwsim's radios for the
// closed-round study (docs/closed-rounds.md, "The real kernel"): it
// decides when each frame a radio hands to userspace is delivered and when
// its TX status goes back, with airq's airtime model. hwsim keeps the
// frame pending (its skb owned by the socket that sent it, so TCP small
// queues and AQL see it in flight) until the status arrives.
//
// What it delivers:
//   - Rates: the radio's own retry chain (minstrel_ht's choice), decoded
//     from hwsim's rate index and flags; a frame at a rate the Link
//     decodes (by default one spatial stream, HT/VHT MCS 0-3, legacy up
//     to 24 Mbit/s) is received, a frame above it is not, so rate control
//     settles on the fastest rate the link carries (VHT80 MCS 3, short GI:
//     130 Mbit/s, the kernel model's link).
//   - Airtimes: aql's exact estimator (preamble, symbols, A-MPDU
//     delimiters and padding), SIFS and an ACK, or a BlockAck after an
//     A-MPDU; EDCA access per radio and access category (AIFS plus a
//     backoff drawn from CWmin, frozen while another transmits, the
//     window doubled on every retry).
//   - Aggregation: the unicast QoS data frames queued to one receiver and
//     TID at the same first rate go out as one A-MPDU, up to 64 MPDUs and
//     4 ms of data.
//   - Sizes: the frame as mac80211 built it, plus the FCS.
//   - Loss: only by rate (above the link) or for want of a receiver;
//     group-addressed frames reach every other radio, unacknowledged.
//   - hwsim's limit: with 200 frames pending a radio frees the oldest
//     down to 99 (mac80211_hwsim_tx_frame_nl); the medium mirrors that
//     and counts it.
//
// What it cannot: collisions (a tie goes to the higher AC, then to the
// radio known first), fading or per-subframe loss in an A-MPDU, block-ack
// windows and agreements (it aggregates whatever is queued), receive
// rates (hwsim's netlink path takes a legacy index only: the receiver is
// told the control-response rate), more than one contention domain per
// frequency, and time itself: it runs on the VM's clock, so when the VM
// is busy it handles events late (it counts by how much) but keeps their
// times on the air's timeline.
package medium
