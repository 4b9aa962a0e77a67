// Package ackmiss watches one BSSID for the sign of a missing ACK: a
// station's unicast frame to the BSSID that comes back with the Retry bit
// set again and again (the same transmitter address and sequence control
// seen Threshold times or more).
//
// A radio cannot see whether its own hardware ACKs: the hardware answers in
// the SIFS after a frame for the addresses of the interfaces the driver
// knows, and says nothing of the ones it did not answer. A station that gets
// no ACK retransmits the frame, Retry set, up to its retry limit; a monitor
// receives every copy. One or two copies are the air's ordinary losses; a
// sequence seen Threshold times is a frame the hardware did not answer.
//
// A Watch is fixed-size (a direct-mapped table of the last sequence per
// transmitter slot), allocates nothing per frame and takes no time: frames
// from the air are hostile, and a flood of forged retries only moves a
// counter. The caller feeds it every unicast data or management frame
// addressed to the BSSID, before its duplicate filter drops the copies.
//
// The sign needs hardware that retransmits. mac80211_hwsim without a medium
// daemon (wmediumd) sends each frame once and reports the ACK it decided
// (mac80211_hwsim_tx_frame_no_nl; rates[0].count = 1): there a missing ACK
// leaves no copies, and a station's MLME retries its authentication with
// new sequence numbers, so the watch stays silent; a test on hwsim injects
// the copies itself.
package ackmiss
