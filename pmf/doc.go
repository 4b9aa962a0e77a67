// Package pmf holds the rules of protected management frames (IEEE
// 802.11w, 802.11-2020 11.13 and 12.5) that are neither a cipher nor a
// key handshake, as hostapd and mac80211 apply them on an AP:
//
//   - which management frames are robust (IsRobust, RobustAction) and what
//     the receive side makes of one from a station (Check): a protected
//     unicast frame is decrypted under the PTK first; an unprotected
//     Deauthentication, Disassociation or robust Action frame claiming to
//     come from an MFP station is dropped and counted by its reason,
//     before it touches the station;
//   - the SA Query Request and Response codec (ParseSAQuery,
//     AppendSAQuery) and the Timeout Interval element with its association
//     comeback time (ParseTimeoutInterval, AppendComeback, Comeback);
//   - the AP's association SA Query procedure, one Query per station, as
//     a state machine with time passed in.
//
// The procedure stops a forged association request from tearing down an
// MFP station's security association: the AP refuses the request with
// status 30 and a comeback time, and asks the station, under its PTK,
// whether it still holds the keys.
//
//	q := pmf.NewQuery(pmf.Config{MaxTimeout: 1000, RetryTimeout: 201})
//	// an association request from an associated, authorized MFP station:
//	status, tus, step := q.Assoc(now)
//	// status 30: answer with pmf.AppendComeback(elems, tus);
//	// status 0: a procedure timed out, associate anew, then q.Reset()
//	// step.Send: send a Request with step.ID (AppendSAQuery, SealMgmt)
//	step = q.Tick(now)          // at q.Deadline(): a retry or TimedOut
//	kept := q.Response(id)      // a protected SA Query Response came
//
// Times follow hostapd: the comeback time is assoc_sa_query_max_timeout
// less the TUs since the first Request, plus one once any have passed
// (hostapd_eid_assoc_comeback_time); the retry timer is
// assoc_sa_query_retry_timeout converted as ap_sa_query_timer converts it
// (201 TUs are 205.824 ms); the procedure times out when more than
// assoc_sa_query_max_timeout whole TUs have passed, checked when the
// timer fires and when an association request comes; a Response with the
// ID of any Request of the procedure ends it with the association kept.
// With hostapd's defaults a silent station gets five Requests, at 0 to
// 823 ms, and times out at 1029 ms.
//
// The rest of 802.11w on the AP is the datapath's, with these pieces:
// unicast robust frames to an MFP station go out under its PTK
// (ccmp.Key.SealMgmt), group-addressed ones with the MME under the IGTK
// (bip.Key.Sign); an Authentication frame from an associated, authorized
// MFP station leaves the association and its keys alone (hostapd's
// handle_auth), so only a completed new association replaces them; and a
// station's SA Query Request is answered with a Response carrying its ID
// (AppendSAQuery) when the station is associated and the Request was
// individually addressed, as ieee802_11_sa_query_action does: a station
// that gets a forged Deauthentication asks the AP so, and drops the
// association if no Response comes. Null and QoS Null frames, which no
// key protects, set only the power-save state, the inactivity clock and
// the signal of the station they name: they are not counted as data and,
// as mac80211's duplicate check skips them, do not write the duplicate
// cache, so that a forged one cannot drop the station's next frame.
//
// # Where it differs from hostapd
//
//   - On a timeout the caller is told (Step.TimedOut). hostapd only marks
//     the station and lets its next (re)association through, keeping the
//     old association and its keys until then; a caller that ends the old
//     association at once gets the same outcome for the station.
//   - After 1000 Requests hostapd's timer stops, and a timeout is noticed
//     only at the next association request; here the timer is armed for
//     the moment the procedure times out, so the caller is told then.
//   - hostapd 2.11's known-STA identification (a station proving with its
//     association request that it is the one associated) is not there,
//     nor OCV's OCI element in SA Query frames: airq negotiates no OCV.
//
// Nothing here allocates per frame; a Query keeps its transaction IDs
// (at most 1000, hostapd's cap) until the procedure ends.
package pmf
