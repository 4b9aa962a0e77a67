// Package hostapd speaks hostapd 2.10's control interface, the protocol of
// hostapd_cli and of the tools that manage hostapd through its sockets:
// commands parsed as hostapd parses them, and replies and events in its
// formats, with no transport. The daemon serves it on one UNIX datagram
// socket per BSS (package shell); the answers come from the core's state
// through package ctl.
//
// # Framing
//
// A request is one datagram holding one command, without a newline; the
// reply is one datagram of at most MaxReply bytes (what hostapd_cli reads).
// "OK\n", "FAIL\n" (bad arguments, or a command that did not take) and
// "UNKNOWN COMMAND\n" answer what has no other reply. A client that sent
// ATTACH is a monitor: events come to it unsolicited, one datagram each,
// "<3>" (the level, hostapd's MSG_INFO) followed by the event:
//
//	<3>AP-STA-CONNECTED 02:00:00:00:01:00
//	<3>AP-STA-DISCONNECTED 02:00:00:00:01:00
//	<3>EAPOL-4WAY-HS-COMPLETED 02:00:00:00:01:00
//	<3>AP-ENABLED
//	<3>AP-DISABLED
//	<3>CTRL-EVENT-TERMINATING
//	<3>CTRL-EVENT-SAE-UNKNOWN-PASSWORD-IDENTIFIER 02:00:00:00:01:00
//
// As in hostapd 2.11, an SAE station gets AP-STA-CONNECTED and
// EAPOL-4WAY-HS-COMPLETED as a WPA2 one does, and a wrong SAE password
// (status 15 at the Confirm) no event: hostapd only logs it.
//
// # Commands
//
//	PING                       PONG
//	STATUS                     the radio and every BSS (AppendStatus)
//	STA ADDR                   one station (AppendSTA); FAIL if unknown
//	STA-FIRST                  the first station; empty if none
//	STA-NEXT ADDR              the station after ADDR; empty after the last
//	ATTACH [probe_rx_events=0|1], DETACH, LEVEL N
//	DEAUTHENTICATE ADDR [reason=N], DISASSOCIATE ADDR [reason=N]
//	SA_QUERY ADDR              802.11w: an SA Query to an MFP station
//	GET_CONFIG                 the BSS's security settings (AppendConfig)
//	SET KEY VALUE, RELOAD, RELOAD_WPA_PSK, ENABLE, DISABLE, RELOG
//	CHAN_SWITCH ...            FAIL: airq does not switch channels
//	DATA_TEST_CONFIG, DATA_TEST_TX, GET_PMK   the testing commands (datatest.go)
//
// The global socket (hostapd -g) takes PING, RELOG, FLUSH, ATTACH,
// DETACH, INTERFACES [ctrl], IFNAME=NAME COMMAND, REMOVE IFNAME and ADD in
// hostapd's three forms (ParseGlobal); anything else answers FAIL.
//
// Commands match as hostapd matches them: most exactly, some by prefix
// (RELOG, ENABLE, RELOAD, DISABLE), and an address is six hex octets
// separated by ':' (hwaddr_aton). Parse is pure and fuzzed.
package hostapd
