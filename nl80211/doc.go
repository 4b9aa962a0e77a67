// Package nl80211 is a small nl80211 client on generic netlink: it lists
// wiphys and interfaces, creates and deletes monitor interfaces, tunes a
// monitor to a channel and dumps channel surveys.
//
// It speaks only the subset of nl80211 an injection access point needs, with
// one request per method and no caching. A Conn is safe for concurrent use:
// each request holds the socket for its whole request/reply exchange.
//
// Interface lifetime: NewMonitor marks the new interface with
// NL80211_ATTR_SOCKET_OWNER, so the kernel deletes the interface when the Conn
// that created it is closed, including when the process dies. Keep that Conn
// open for as long as the interface is in use and close it (or call
// DelInterface) to remove the interface.
//
// The Conn never joins multicast groups: an nl80211 event arriving in the
// middle of a request would break the request/reply matching. Event listeners
// need a connection of their own.
//
// Errors carry the operation and, when the kernel supplied one, its
// extended-acknowledgement text:
//
//	nl80211: new interface mon0: operation not supported: active monitor not supported
//
// and match the kernel's errno with errors.Is (for example unix.EBUSY when
// another interface on the wiphy prevents a channel change).
package nl80211
