/**
 * The longest path parameter the router accepts, in UTF-16 code units after percent-decoding (the router measures a
 * JavaScript string). The longest identifier a path carries is a conversation or user id of 200 characters (code
 * points, as JSON Schema counts them), which takes up to 400 code units when every character is outside the Basic
 * Multilingual Plane (emoji). A longer segment is answered 414 before any route runs and never costs a lookup; one
 * within this limit but over 200 characters is refused by the route's schema (400 INVALID_INPUT).
 */
export const maxPathParamLength = 400
