// Package monitor brings up airqd's Linux radio: an active monitor
// interface on a wiphy, driven through nl80211 and injected into through
// AF_PACKET (package inject).
//
// Open finds the phy, checks that nothing else holds it (or takes it over),
// applies the country, fits the core's configuration to what the phy and
// the applied regulatory domain allow (channel, HT/VHT capabilities, the
// Country element, the candidates of automatic channel selection and the
// background scan's channels), creates and tunes the monitor interface,
// qualifies the hardware (TX-status echoes, ACK status, sequence numbers,
// the rate, the retune time: see Report), brings up an ACK holder for each
// other BSS's BSSID (HolderKind; the BSSIDs are first checked against the
// driver's address rule, bssid.Rule of package internal/bssid) and opens
// the injection socket. The Radio it returns gives the shell the fitted
// ap.Config, the device, and the retuner that carries out the
// core's scan trips and start-up channel survey.
//
// The fitting, the Country element, the channel lists and the survey
// arithmetic are plain functions of nl80211's data, tested without a
// radio; the bring-up itself needs Linux and CAP_NET_ADMIN.
package monitor
