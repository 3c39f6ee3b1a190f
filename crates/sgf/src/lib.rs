//! SGF records for ingo (in progress).
