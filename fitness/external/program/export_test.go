package program

// SetTestHookBeforeReply sets the hook; tests restore it with the returned
// function.
func SetTestHookBeforeReply(f func(id uint64)) (restore func()) {
	old := testHookBeforeReply
	testHookBeforeReply = f
	return func() { testHookBeforeReply = old }
}
