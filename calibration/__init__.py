"""Board calibration: find the board in a camera frame, the homography, rectify, drift check."""
