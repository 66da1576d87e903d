#ifndef TERMMAP_CCURL_SHIM_H
#define TERMMAP_CCURL_SHIM_H

#include <curl/curl.h>

// `curl_easy_setopt` and `curl_easy_getinfo` are variadic, which Swift cannot call; these
// wrappers pass each kind of value the options take.

/// A body or header callback (CURLOPT_WRITEFUNCTION, CURLOPT_HEADERFUNCTION).
typedef size_t (*termmap_curl_data_fn)(char *data, size_t size, size_t count, void *user);
/// A progress callback (CURLOPT_XFERINFOFUNCTION): non-zero aborts the transfer.
typedef int (*termmap_curl_progress_fn)(void *user, curl_off_t dltotal, curl_off_t dlnow,
                                        curl_off_t ultotal, curl_off_t ulnow);

static inline CURLcode termmap_curl_set_long(CURL *handle, CURLoption option, long value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode termmap_curl_set_string(CURL *handle, CURLoption option,
                                               const char *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode termmap_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode termmap_curl_set_headers(CURL *handle, struct curl_slist *list) {
  return curl_easy_setopt(handle, CURLOPT_HTTPHEADER, list);
}

static inline CURLcode termmap_curl_set_data_fn(CURL *handle, CURLoption option,
                                                termmap_curl_data_fn fn) {
  return curl_easy_setopt(handle, option, fn);
}

static inline CURLcode termmap_curl_set_progress_fn(CURL *handle, termmap_curl_progress_fn fn) {
  return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, fn);
}

static inline CURLcode termmap_curl_get_long(CURL *handle, CURLINFO info, long *value) {
  return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode termmap_curl_get_off(CURL *handle, CURLINFO info, curl_off_t *value) {
  return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode termmap_curl_get_string(CURL *handle, CURLINFO info, char **value) {
  return curl_easy_getinfo(handle, info, value);
}

static inline CURLSHcode termmap_curl_share_set_long(CURLSH *share, CURLSHoption option,
                                                     long value) {
  return curl_share_setopt(share, option, value);
}

#endif
