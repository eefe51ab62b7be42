// CRLF line endings
// line 2
// line 3
int fourth_line_of_crlf_file;
