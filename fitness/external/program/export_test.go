package program

import "time"

// SetTestHookBeforeReply sets the hook; tests restore it with the returned
// function.
func SetTestHookBeforeReply(f func(id uint64)) (restore func()) {
	old := testHookBeforeReply
	testHookBeforeReply = f
	return func() { testHookBeforeReply = old }
}

// SetMaxHold sets how long a reply may wait in the buffer; tests restore
// it with the returned function.
func SetMaxHold(d time.Duration) (restore func()) {
	old := maxHold
	maxHold = d
	return func() { maxHold = old }
}
