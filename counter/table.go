package counter

// The counters, in the order the status lists them.
const (
	// The station table and the queues, filled in at a snapshot (gauges).
	Associated    ID = iota // stations associated
	Authenticated           // stations authenticated, not associated nor pending
	Pending                 // stations whose association awaits the response's acknowledgement
	Backlog                 // downlink frames queued in the scheduler

	// Frames read from the monitor interface.
	RxFrames          // everything read, TX-status echoes included
	RxMgmt            // management frames from the air
	RxData            // data frames from the air
	RxCtrl            // control frames from the air
	RxMalformed       // frames or A-MSDU subframes that do not parse; management frames from a group, zero or own address
	RxBadFCS          // frames the radio received with a bad FCS
	RxNotForUs        // frames addressed to another BSS
	RxFromUnknown     // class-3 frames and PS-Polls from stations not associated
	RxDuplicates      // retransmissions already received
	RxFragments       // fragments (not reassembled)
	RxUnauthorized    // data other than EAPOL before the station is authorized
	RxToWiredDropped  // MSDUs for the TAP lost: no buffer, or its output full
	RxToWired         // MSDUs handed to the TAP
	RxIntraBSS        // unicast MSDUs relayed to another station of the BSS
	RxAMSDUSubframes  // MSDUs received inside A-MSDUs
	PSPolls           // PS-Polls from associated stations
	RadioLostInKernel // dropped by the receive socket's kernel queue
	RadioFiltered     // shed by the receive filter in the kernel

	// TX status of the frames the core sent.
	Echoes        // TX-status echoes of our frames
	EchoAcked     // echoes matched to a frame in flight, acknowledged
	EchoFailed    // echoes matched to a frame in flight, not acknowledged
	EchoUnmatched // echoes matching no frame in flight
	NoStatus      // frames completed without their echo: a later one came first
	TimedOut      // frames completed by the echo timeout
	NotSent       // frames the radio refused to take

	// Frames the core generates itself, and station admission.
	Beacons
	ProbeResponses
	AuthResponses
	AssocResponses
	Deauths
	ADDBADeclined    // ADDBA responses declining a block-ack session
	RepliesThrottled // replies not sent: the reply airtime budget was spent
	OutputOverflow   // own frames lost: no buffer, or the radio output full
	AuthEvicted      // authenticated-only stations removed to make room
	ACLDenied        // authentications and associations the access lists refused
	EventsLost       // station events overwritten before they were drained
	WidthChanges     // switches of a 2.4 GHz radio between 40 and 20 MHz for 20/40 MHz coexistence
	CoexMgmtFrames   // 20/40 BSS Coexistence Management frames taken (malformed ones count as rx_malformed)

	// Admission under load (ap's mlme.go, admit.go, replies.go).
	AuthNotAcked       // authentication responses never acknowledged: the entry is dropped, the MAC remembered
	AssocAcked         // association responses acknowledged: the station is associated
	AssocNotAcked      // association responses not acknowledged: the AID is released
	AssocTimedOut      // no TX status for an association response in time: the AID is released
	AssocByFrame       // associations confirmed by the station's first frame, the response's status lost or overdue
	AssocNotSent       // accepted associations whose response the budget or the buffers held back
	AssocMalformed     // association requests refused (status 1): element chain overruns the frame, bad WMM element
	AssocRetries       // retransmitted association requests ignored (same sequence number)
	AssocEarly         // association requests ignored: the authentication response's ACK not known yet
	RxWhilePending     // class 3 frames ignored while the station's association response was pending
	PendingEvicted     // pending associations dropped to make room
	QuietEvicted       // associated stations without data since associating, removed to make room
	ThrottledKnown     // replies throttled to MACs heard from before they authenticated
	ThrottledNew       // replies throttled to MACs first heard in their authentication
	ThrottledStranger  // replies throttled to strangers: probe responses, reason 6 and 7, Action bounces
	RateTablesBuilt    // per-station rate tables built at a station's first data frame
	RateTablesReleased // rate tables given back after an idle time without data
	RxAMSDUMalformed   // A-MSDUs dropped whole: a subframe overruns the frame
	RxAMSDUInjected    // A-MSDUs dropped whole: the first subframe's DA is an RFC 1042 header
	Rx4Addr            // 4-address data frames (airq has no WDS stations), whatever became of them
	Rx4AddrDropped     // 4-address data frames from associated (or pending) stations, ignored
	AssocRepeatedElem  // association requests refused (status 40): an element allowed once appears twice
	AssocAfterLostAck  // association requests taken from a station whose authentication response's ACK never came

	// The downlink: every MSDU that enters it ends in exactly one of
	// WiredSent, WiredTxFailed and WiredDropped*, or is queued or in flight.
	WiredIn           // frames read from the TAP
	WiredLostInKernel // host frames the TAP's kernel queue dropped: never read, outside the books
	DownlinkIn        // MSDUs entering the downlink (TAP, intra-BSS, multicast copies)
	WiredSent         // completed by the radio: acknowledged, or without status
	WiredTxFailed     // the station never acknowledged them
	WiredDroppedNoStation
	WiredDroppedUnauthorized
	WiredDroppedMalformed
	WiredDroppedNoBuffer
	WiredDroppedQueueFull
	WiredDroppedOverlimit
	WiredDroppedOvermemory
	WiredDroppedCoDel
	WiredDroppedFlushed
	Rebuffered // failed while their station dozed: queued again

	// WPA2 (ap's rsn.go, crypt.go, eapol.go): frames the RSN checks drop,
	// EAPOL and the key handshakes.
	RxUnprotected   // unprotected data (but EAPOL and Null frames) once the station has a key
	RxUndecryptable // protected data without a key for it, or a bad CCMP header
	RxReplayed      // protected data with a PN not above the last one accepted
	RxMICFailure    // protected data whose MIC does not verify
	EAPOLTx         // EAPOL frames the authenticator sent
	EAPOLRx         // EAPOL frames from stations handed to the authenticator
	EAPOLAccepted   // of those, passed every check and drove the handshake (a gauge of the authenticator's)
	EAPOLMalformed  // not an EAPOL-Key frame with all its fields
	EAPOLVersion    // key descriptor version other than the AKM's
	EAPOLReplayed   // a replay counter the authenticator does not expect
	EAPOLState      // a message the handshake is not waiting for
	EAPOLMIC        // MIC did not verify
	// Messages 2 not checked against the PSKs, bounding what forged ones
	// cost (rsn/handshake's budget.go):
	EAPOLRepeated      // the replay counter, SNonce and MIC of one that failed
	EAPOLStationBudget // beyond the station's checks for the message 1 it answers
	EAPOLWorkBudget    // beyond the BSS's PSK tries per second
	HandshakeCompleted // 4-way handshakes completed, rekeys included
	HandshakeFailed    // stations disconnected by a failed key handshake
	PSKMismatch        // message 2 failed the MIC under every PSK
	GTKInstalled       // group keys the AP started sending with

	// 802.11w (ap's pmf.go): management frames from stations the receive
	// rules drop before they touch the station, and the SA Query.
	RxMgmtUnprotectedDeauth   // an unprotected deauthentication claiming to come from an MFP station
	RxMgmtUnprotectedDisassoc // an unprotected disassociation claiming to come from an MFP station
	RxMgmtUnprotectedAction   // a robust Action frame without protection from an MFP station
	RxMgmtGroupRobust         // a group-addressed robust frame from an MFP station
	RxMgmtProtectedUnexpected // protected, from a station without MFP, or of a kind never protected
	RxMgmtUndecryptable       // protected, without a pairwise key for it, or a bad CCMP header
	RxMgmtReplayed            // protected, with a PN not above the last management one accepted
	RxMgmtMICFailure          // protected, with a CCMP MIC that does not verify
	SAQueryRequests           // SA Query Requests the AP sent for an association request
	SAQueryKept               // SA Query procedures a protected Response ended: the association stays
	SAQueryTimedOut           // SA Query procedures that timed out: the old association ends
	SAQueryAnswered           // stations' SA Query Requests the AP answered
	AssocComeback             // association requests refused with status 30 and a comeback time
	AuthKeptAssoc             // authentications from associated MFP stations that left the association alone
	IGTKInstalled             // IGTKs the AP started signing group management frames with

	// WPA3-Personal (ap's sae.go): SAE commits and confirms by outcome.
	SAEAccepted        // SAE exchanges accepted
	SAETokenRequested  // commits answered with an anti-clogging token request
	SAEBadToken        // commits dropped: a wrong or reused token
	SAEQueueFull       // SAE frames dropped unread: the BSS's queue of received Commits was full (15)
	SAEReflection      // commits dropped: our own commit reflected
	SAEBadGroup        // commits refused: a group not enabled (status 77)
	SAEBadCommit       // commits refused: a bad scalar or element, or another fault (status 1)
	SAEBudget          // commits dropped: over the budget of SAE work
	SAEDropped         // SAE frames dropped for another cause (state, status code, disabled instance)
	SAEConfirmMismatch // confirms that did not verify: a wrong password, most likely (status 15)
	SAESyncErrors      // SAE instances reset past sae_sync protocol-sync errors
	SAEPMKSAHits       // associations that named a cached PMKSA and skipped SAE

	NumIDs
)

// The values of the label reason: one name per cause, in every family
// that counts frames lost.
const (
	ReasonMalformed      = "malformed"        // does not parse, or too long
	ReasonBadFCS         = "bad_fcs"          // the radio received it damaged
	ReasonNotForUs       = "not_for_us"       // addressed to another BSS
	ReasonNoStation      = "no_station"       // from or to a station that is not associated
	ReasonDuplicate      = "duplicate"        // a retransmission already received
	ReasonFragment       = "fragment"         // airq does not reassemble
	ReasonUnauthorized   = "unauthorized"     // before the station's 802.1X authorization
	ReasonNoBuffer       = "no_buffer"        // the frame pool or an output was full
	ReasonReplyBudget    = "reply_budget"     // the reply airtime budget was spent
	ReasonTxFailed       = "tx_failed"        // the station never acknowledged it
	ReasonQueueFull      = "queue_full"       // the station's queue hit its bound
	ReasonOverlimit      = "overlimit"        // the queues' total frame bound was hit
	ReasonOvermemory     = "overmemory"       // the queues' total byte bound was hit
	ReasonCoDel          = "codel"            // CoDel dropped it at dequeue
	ReasonFlushed        = "flushed"          // its station left, or its queues were flushed
	ReasonAssocRetry     = "assoc_retry"      // a retransmitted association request
	ReasonAssocEarly     = "auth_unconfirmed" // an association request before the authentication's ACK is known
	ReasonAssocPending   = "assoc_pending"    // a class 3 frame while the association response's status is awaited
	ReasonAMSDUMalformed = "amsdu_malformed"  // an A-MSDU with a subframe that overruns it, dropped whole
	ReasonAMSDUInjected  = "amsdu_injection"  // an A-MSDU whose first DA is an RFC 1042 header, dropped whole
	ReasonFourAddress    = "four_address"     // a 4-address frame from a station: airq has no WDS stations
	ReasonUnprotected    = "unprotected"      // unprotected data from a station that has a key
	ReasonUndecryptable  = "undecryptable"    // protected without a key for it, or a bad CCMP header
	ReasonReplay         = "replay"           // a CCMP packet number not above the last one accepted
	ReasonMICFailure     = "mic_failure"      // the CCMP MIC does not verify

	// 802.11w's receive rules, named as pmf.Verdict names them.
	ReasonUnprotectedDeauth   = "unprotected_deauth"     // an unprotected deauthentication from an MFP station
	ReasonUnprotectedDisassoc = "unprotected_disassoc"   // an unprotected disassociation from an MFP station
	ReasonUnprotectedAction   = "unprotected_action"     // an unprotected robust Action frame from an MFP station
	ReasonGroupRobust         = "group_addressed_robust" // a group-addressed robust frame from a station
	ReasonProtectedUnexpected = "protected_unexpected"   // protected where nothing decrypts it
)

var (
	stations = &Family{"airq_stations", "Stations in the table: associated, association pending (the response's acknowledgement awaited), or authenticated only.", Gauge, "state"}
	backlog  = &Family{"airq_backlog_frames", "Downlink frames queued for stations.", Gauge, ""}

	rxFrames = &Family{"airq_rx_frames_total", "Frames read from the monitor interface, TX-status echoes included.", Counter, ""}
	rxByType = &Family{"airq_rx_frames_by_type_total", "Frames from the air by 802.11 type, once their headers parse " +
		"(echoes and frames with a bad FCS excluded).", Counter, "type"}
	rxDrops = &Family{"airq_rx_drops_total", "Frames (or A-MSDU subframes, or MSDUs on their way to the TAP) " +
		"from the air dropped, by reason.", Counter, "reason"}
	rxToWired   = &Family{"airq_rx_to_wired_total", "MSDUs from stations handed to the TAP.", Counter, ""}
	rxIntraBSS  = &Family{"airq_rx_intra_bss_total", "Unicast MSDUs from stations relayed to another station of the BSS.", Counter, ""}
	rxAMSDUSubs = &Family{"airq_rx_amsdu_subframes_total", "MSDUs received inside A-MSDUs; each is also counted where it went.", Counter, ""}
	rxPSPolls   = &Family{"airq_rx_ps_polls_total", "PS-Poll frames from associated stations.", Counter, ""}
	radioKernel = &Family{"airq_radio_kernel_drops_total", "Frames the monitor socket's kernel queue dropped before airq " +
		"read them (PACKET_STATISTICS); some may have been TX-status echoes.", Counter, ""}
	radioFiltered = &Family{"airq_radio_filtered_total", "Frames the monitor interface received that the receive " +
		"filter shed in the kernel (ACK, RTS, CTS, other networks' frames): its rx_packets less what the filter passed; " +
		"a lower bound.", Counter, ""}

	echoes   = &Family{"airq_echoes_total", "TX-status echoes of the core's own frames.", Counter, ""}
	byResult = &Family{"airq_echoes_by_result_total", "TX-status echoes by result: matched to a frame in flight and " +
		"acknowledged (or sent without acknowledgement policy), matched and not acknowledged, or matching no frame in " +
		"flight (late, or after the timeout).", Counter, "result"}
	noStatus = &Family{"airq_tx_no_status_total", "Frames completed without their echo: a later frame's echo came " +
		"first, or a retune flushed them.", Counter, ""}
	timedOut = &Family{"airq_tx_timed_out_total", "Frames completed by the echo timeout.", Counter, ""}
	notSent  = &Family{"airq_tx_not_sent_total", "Frames the radio refused to take; they complete at once, without status.", Counter, ""}

	widthChanges = &Family{"airq_width_changes_total", "Switches of a 40 MHz radio on 2.4 GHz to 20 MHz and back " +
		"for 20/40 MHz coexistence: 40 MHz Intolerant stations, 20/40 BSS Coexistence Management frames.", Counter, ""}
	coexFrames = &Family{"airq_rx_coex_2040_frames_total", "20/40 BSS Coexistence Management frames received " +
		"and parsed, whether they changed the width or not.", Counter, ""}
	mgmtTx = &Family{"airq_tx_management_frames_total", "Management frames the core sent, by type: beacons, " +
		"probe responses, authentication and (re)association responses, deauthentications, ADDBA responses " +
		"declining block ack.", Counter, "type"}
	ownDrops = &Family{"airq_tx_own_drops_total", "Frames the core built itself (management and Null frames) and did " +
		"not send, by reason.", Counter, "reason"}
	evicted = &Family{"airq_evicted_total", "Stations removed, oldest first, to make room in a full table: only " +
		"authenticated, association pending, or associated without a data frame since.", Counter, "state"}
	authNotAcked = &Family{"airq_auth_not_acked_total", "Authentication responses the station never acknowledged; " +
		"its entry is dropped, its MAC remembered for a second (airq_assoc_after_lost_ack_total).", Counter, ""}
	assocOutcomes = &Family{"airq_assoc_outcomes_total", "Accepted association requests by outcome: the response " +
		"acknowledged, not acknowledged, without TX status in time, confirmed by the station's first frame, or not sent.", Counter, "result"}
	assocMalformed = &Family{"airq_assoc_malformed_total", "Association requests refused with status 1: an element " +
		"chain that overruns the frame, or a malformed WMM element.", Counter, ""}
	assocRepeated = &Family{"airq_assoc_repeated_element_total", "Association requests refused with status 40: " +
		"an element the standard allows once (RSNE, SSID, rates, capabilities) appears twice.", Counter, ""}
	assocAfterLostAck = &Family{"airq_assoc_after_lost_ack_total", "Association requests taken from a station whose " +
		"authentication response was answered recently but never acknowledged.", Counter, ""}
	throttledByClass = &Family{"airq_replies_throttled_by_class_total", "Replies the budget held back, by class " +
		"(a breakdown of airq_tx_own_drops_total{reason=\"reply_budget\"}).", Counter, "class"}
	rateTables = &Family{"airq_rate_tables_total", "Per-station rate tables built at a station's first data frame, " +
		"and released when it stays idle.", Counter, "event"}
	rx4Addr = &Family{"airq_rx_four_address_total", "4-address data frames from the air (airq has no WDS stations), " +
		"whatever became of them.", Counter, ""}
	aclDenied  = &Family{"airq_acl_denied_total", "Authentications and associations the access lists refused.", Counter, ""}
	eventsLost = &Family{"airq_events_lost_total", "Station events the core's queue overwrote before the daemon drained them.", Counter, ""}

	wiredIn     = &Family{"airq_wired_in_frames_total", "Frames read from the TAP.", Counter, ""}
	wiredKernel = &Family{"airq_wired_kernel_drops_total", "Frames from the host the TAP's kernel queue dropped " +
		"(tun's tx_dropped); they never reached airq.", Counter, ""}
	downlinkIn = &Family{"airq_downlink_frames_total", "MSDUs entering the downlink: from the TAP, relayed within " +
		"the BSS, one per unicast copy of a multicast. Each is sent, dropped, queued or in flight.", Counter, ""}
	downlinkSent  = &Family{"airq_downlink_sent_total", "Downlink MSDUs the radio completed: acknowledged, or without TX status.", Counter, ""}
	downlinkDrops = &Family{"airq_downlink_drops_total", "Downlink MSDUs dropped, by reason.", Counter, "reason"}
	rebuffered    = &Family{"airq_downlink_rebuffered_total", "Downlink MSDUs that failed while their station dozed, " +
		"queued again for its wake-up.", Counter, ""}
)

var (
	eapolFrames = &Family{"airq_eapol_frames_total", "EAPOL frames of the WPA2 key handshakes: sent by the " +
		"authenticator, or received from stations and handed to it (never bridged).", Counter, "direction"}
	eapolByResult = &Family{"airq_eapol_rx_by_result_total", "EAPOL frames the authenticator took, by what became " +
		"of them: accepted, or dropped as malformed, with another descriptor version, an unexpected replay " +
		"counter, in the wrong state, or a bad MIC, and messages 2 left unchecked: a repeat of one that failed, " +
		"beyond the station's checks per message 1, or beyond the BSS's PSK tries per second.", Counter, "result"}
	handshakes = &Family{"airq_rsn_handshakes_total", "WPA2 key handshakes: 4-way handshakes completed (rekeys " +
		"included), and stations disconnected because one failed.", Counter, "result"}
	pskMismatch = &Family{"airq_rsn_psk_mismatch_total", "Messages 2 of the 4-way handshake whose MIC no PSK " +
		"verifies (hostapd's AP-STA-POSSIBLE-PSK-MISMATCH): a wrong passphrase on the station, most likely.", Counter, ""}
	mgmtProtDrops = &Family{"airq_rx_mgmt_protection_drops_total", "Management frames from stations that 802.11w's " +
		"receive rules dropped before they touched the station, by reason: unprotected deauthentications, " +
		"disassociations and robust Action frames from MFP stations, group-addressed robust frames, unexpected " +
		"protected frames, and protected ones without a key, replayed, or with a bad MIC.", Counter, "reason"}
	saQuery = &Family{"airq_sa_query_total", "The association SA Query (802.11w): Requests sent, procedures ended " +
		"by the station's protected Response (association kept) or timed out (association ended), and stations' " +
		"Requests answered.", Counter, "event"}
	assocComeback = &Family{"airq_assoc_comeback_total", "Association requests from associated MFP stations refused " +
		"with status 30 and a comeback time while the SA Query runs.", Counter, ""}
	saeCommits         = &Family{"airq_sae_commits_total", "SAE frames by outcome: exchanges accepted, token requests, and commits dropped or refused.", Counter, "outcome"}
	saeConfirmMismatch = &Family{"airq_sae_confirm_mismatch_total", "SAE confirms that did not verify (status 15): a wrong password, most likely.", Counter, ""}
	saeSync            = &Family{"airq_sae_sync_errors_total", "SAE instances reset past sae_sync protocol-sync errors.", Counter, ""}
	saePMKSAHits       = &Family{"airq_sae_pmksa_hits_total", "Associations with AKM SAE that named a cached PMKSA and skipped SAE.", Counter, ""}
	authKept           = &Family{"airq_auth_kept_association_total", "Authentications from associated MFP stations answered " +
		"without touching their association or keys, as hostapd does.", Counter, ""}
	igtkInstalled = &Family{"airq_rsn_igtk_installed_total", "IGTKs the AP started signing group-addressed " +
		"management frames with (BIP-CMAC-128).", Counter, ""}
	gtkInstalled = &Family{"airq_rsn_gtk_installed_total", "Group keys the AP started sending with: the first, " +
		"then one per completed GTK rekey.", Counter, ""}
)

var table = [NumIDs]Desc{
	Associated:    {"num_sta", stations, "associated"},
	Authenticated: {"num_auth", stations, "authenticated"},
	Pending:       {"num_pending", stations, "pending"},
	Backlog:       {"backlog_frames", backlog, ""},

	RxFrames:          {"rx_frames", rxFrames, ""},
	RxMgmt:            {"rx_mgmt", rxByType, "management"},
	RxData:            {"rx_data", rxByType, "data"},
	RxCtrl:            {"rx_ctrl", rxByType, "control"},
	RxMalformed:       {"rx_malformed", rxDrops, ReasonMalformed},
	RxBadFCS:          {"rx_bad_fcs", rxDrops, ReasonBadFCS},
	RxNotForUs:        {"rx_not_for_us", rxDrops, ReasonNotForUs},
	RxFromUnknown:     {"rx_from_unknown", rxDrops, ReasonNoStation},
	RxDuplicates:      {"rx_duplicates", rxDrops, ReasonDuplicate},
	RxFragments:       {"rx_fragments", rxDrops, ReasonFragment},
	RxUnauthorized:    {"rx_unauthorized", rxDrops, ReasonUnauthorized},
	RxToWiredDropped:  {"wired_dropped", rxDrops, ReasonNoBuffer},
	RxToWired:         {"rx_to_wired", rxToWired, ""},
	RxIntraBSS:        {"rx_intra_bss", rxIntraBSS, ""},
	RxAMSDUSubframes:  {"rx_amsdu_subframes", rxAMSDUSubs, ""},
	PSPolls:           {"ps_polls", rxPSPolls, ""},
	RadioLostInKernel: {"radio_lost_in_kernel", radioKernel, ""},
	RadioFiltered:     {"radio_filtered", radioFiltered, ""},

	Echoes:        {"echoes", echoes, ""},
	EchoAcked:     {"echo_acked", byResult, "acked"},
	EchoFailed:    {"echo_failed", byResult, "failed"},
	EchoUnmatched: {"echo_unmatched", byResult, "unmatched"},
	NoStatus:      {"no_status", noStatus, ""},
	TimedOut:      {"timed_out", timedOut, ""},
	NotSent:       {"not_sent", notSent, ""},

	Beacons:          {"beacons", mgmtTx, "beacon"},
	ProbeResponses:   {"probe_responses", mgmtTx, "probe_response"},
	AuthResponses:    {"auth_responses", mgmtTx, "auth"},
	AssocResponses:   {"assoc_responses", mgmtTx, "assoc_response"},
	Deauths:          {"deauths", mgmtTx, "deauth"},
	ADDBADeclined:    {"addba_declined", mgmtTx, "addba_response"},
	RepliesThrottled: {"replies_throttled", ownDrops, ReasonReplyBudget},
	OutputOverflow:   {"output_overflow", ownDrops, ReasonNoBuffer},
	AuthEvicted:      {"auth_evicted", evicted, "authenticated"},
	ACLDenied:        {"acl_denied", aclDenied, ""},
	EventsLost:       {"events_lost", eventsLost, ""},
	WidthChanges:     {"width_changes", widthChanges, ""},
	CoexMgmtFrames:   {"coex_2040_frames", coexFrames, ""},

	AuthNotAcked:       {"auth_not_acked", authNotAcked, ""},
	AssocAcked:         {"assoc_acked", assocOutcomes, "acked"},
	AssocNotAcked:      {"assoc_not_acked", assocOutcomes, "not_acked"},
	AssocTimedOut:      {"assoc_timed_out", assocOutcomes, "timed_out"},
	AssocByFrame:       {"assoc_by_frame", assocOutcomes, "by_frame"},
	AssocNotSent:       {"assoc_not_sent", assocOutcomes, "not_sent"},
	AssocMalformed:     {"assoc_malformed", assocMalformed, ""},
	AssocRetries:       {"assoc_retries", rxDrops, ReasonAssocRetry},
	AssocEarly:         {"assoc_early", rxDrops, ReasonAssocEarly},
	RxWhilePending:     {"rx_while_pending", rxDrops, ReasonAssocPending},
	PendingEvicted:     {"pending_evicted", evicted, "pending"},
	QuietEvicted:       {"quiet_evicted", evicted, "quiet"},
	ThrottledKnown:     {"throttled_known", throttledByClass, "known"},
	ThrottledNew:       {"throttled_new", throttledByClass, "new"},
	ThrottledStranger:  {"throttled_stranger", throttledByClass, "stranger"},
	RateTablesBuilt:    {"rate_tables_built", rateTables, "built"},
	RateTablesReleased: {"rate_tables_released", rateTables, "released"},
	RxAMSDUMalformed:   {"rx_amsdu_malformed", rxDrops, ReasonAMSDUMalformed},
	RxAMSDUInjected:    {"rx_amsdu_injected", rxDrops, ReasonAMSDUInjected},
	Rx4Addr:            {"rx_4addr", rx4Addr, ""},
	Rx4AddrDropped:     {"rx_4addr_dropped", rxDrops, ReasonFourAddress},
	AssocRepeatedElem:  {"assoc_repeated_element", assocRepeated, ""},
	AssocAfterLostAck:  {"assoc_after_lost_ack", assocAfterLostAck, ""},

	WiredIn:                  {"wired_in", wiredIn, ""},
	WiredLostInKernel:        {"wired_lost_in_kernel", wiredKernel, ""},
	DownlinkIn:               {"downlink_in", downlinkIn, ""},
	WiredSent:                {"wired_sent", downlinkSent, ""},
	WiredTxFailed:            {"wired_tx_failed", downlinkDrops, ReasonTxFailed},
	WiredDroppedNoStation:    {"dropped_no_station", downlinkDrops, ReasonNoStation},
	WiredDroppedUnauthorized: {"dropped_unauthorized", downlinkDrops, ReasonUnauthorized},
	WiredDroppedMalformed:    {"dropped_malformed", downlinkDrops, ReasonMalformed},
	WiredDroppedNoBuffer:     {"dropped_no_buffer", downlinkDrops, ReasonNoBuffer},
	WiredDroppedQueueFull:    {"dropped_queue_full", downlinkDrops, ReasonQueueFull},
	WiredDroppedOverlimit:    {"dropped_overlimit", downlinkDrops, ReasonOverlimit},
	WiredDroppedOvermemory:   {"dropped_overmemory", downlinkDrops, ReasonOvermemory},
	WiredDroppedCoDel:        {"dropped_codel", downlinkDrops, ReasonCoDel},
	WiredDroppedFlushed:      {"dropped_flushed", downlinkDrops, ReasonFlushed},
	Rebuffered:               {"rebuffered", rebuffered, ""},

	RxUnprotected:      {"rx_unprotected", rxDrops, ReasonUnprotected},
	RxUndecryptable:    {"rx_undecryptable", rxDrops, ReasonUndecryptable},
	RxReplayed:         {"rx_replayed", rxDrops, ReasonReplay},
	RxMICFailure:       {"rx_mic_failure", rxDrops, ReasonMICFailure},
	EAPOLTx:            {"eapol_tx", eapolFrames, "tx"},
	EAPOLRx:            {"eapol_rx", eapolFrames, "rx"},
	EAPOLAccepted:      {"eapol_accepted", eapolByResult, "accepted"},
	EAPOLMalformed:     {"eapol_malformed", eapolByResult, "malformed"},
	EAPOLVersion:       {"eapol_version", eapolByResult, "version"},
	EAPOLReplayed:      {"eapol_replayed", eapolByResult, "replayed"},
	EAPOLState:         {"eapol_state", eapolByResult, "state"},
	EAPOLMIC:           {"eapol_mic", eapolByResult, "mic"},
	EAPOLRepeated:      {"eapol_repeated", eapolByResult, "repeated"},
	EAPOLStationBudget: {"eapol_station_budget", eapolByResult, "station_budget"},
	EAPOLWorkBudget:    {"eapol_work_budget", eapolByResult, "work_budget"},
	HandshakeCompleted: {"handshakes_completed", handshakes, "completed"},
	HandshakeFailed:    {"handshakes_failed", handshakes, "failed"},
	PSKMismatch:        {"psk_mismatch", pskMismatch, ""},
	GTKInstalled:       {"gtk_installed", gtkInstalled, ""},

	RxMgmtUnprotectedDeauth:   {"rx_mgmt_unprotected_deauth", mgmtProtDrops, ReasonUnprotectedDeauth},
	RxMgmtUnprotectedDisassoc: {"rx_mgmt_unprotected_disassoc", mgmtProtDrops, ReasonUnprotectedDisassoc},
	RxMgmtUnprotectedAction:   {"rx_mgmt_unprotected_action", mgmtProtDrops, ReasonUnprotectedAction},
	RxMgmtGroupRobust:         {"rx_mgmt_group_robust", mgmtProtDrops, ReasonGroupRobust},
	RxMgmtProtectedUnexpected: {"rx_mgmt_protected_unexpected", mgmtProtDrops, ReasonProtectedUnexpected},
	RxMgmtUndecryptable:       {"rx_mgmt_undecryptable", mgmtProtDrops, ReasonUndecryptable},
	RxMgmtReplayed:            {"rx_mgmt_replayed", mgmtProtDrops, ReasonReplay},
	RxMgmtMICFailure:          {"rx_mgmt_mic_failure", mgmtProtDrops, ReasonMICFailure},
	SAQueryRequests:           {"sa_query_requests", saQuery, "request_sent"},
	SAQueryKept:               {"sa_query_kept", saQuery, "kept"},
	SAQueryTimedOut:           {"sa_query_timed_out", saQuery, "timed_out"},
	SAQueryAnswered:           {"sa_query_answered", saQuery, "answered"},
	AssocComeback:             {"assoc_comeback", assocComeback, ""},
	AuthKeptAssoc:             {"auth_kept_assoc", authKept, ""},
	IGTKInstalled:             {"igtk_installed", igtkInstalled, ""},
	SAEAccepted:               {"sae_accepted", saeCommits, "accepted"},
	SAETokenRequested:         {"sae_token_requested", saeCommits, "token_requested"},
	SAEBadToken:               {"sae_bad_token", saeCommits, "bad_token"},
	SAEQueueFull:              {"sae_queue_full", saeCommits, "queue_full"},
	SAEReflection:             {"sae_reflection", saeCommits, "reflection"},
	SAEBadGroup:               {"sae_bad_group", saeCommits, "bad_group"},
	SAEBadCommit:              {"sae_bad_commit", saeCommits, "bad_commit"},
	SAEBudget:                 {"sae_budget", saeCommits, "budget"},
	SAEDropped:                {"sae_dropped", saeCommits, "dropped"},
	SAEConfirmMismatch:        {"sae_confirm_mismatch", saeConfirmMismatch, ""},
	SAESyncErrors:             {"sae_sync_errors", saeSync, ""},
	SAEPMKSAHits:              {"sae_pmksa_hits", saePMKSAHits, ""},
}
