// Package nl80211test is a fake kernel for nl80211.Conn: canned replies to
// the interface commands (NEW_INTERFACE, DEL_INTERFACE), built attribute by
// attribute after nl80211_new_interface and nl80211_send_iface, so that
// the bring-up code of other packages can be tested without a radio,
// including a driver that refuses an interface.
package nl80211test
