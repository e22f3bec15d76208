// opencc-js's dictionaries (OpenCC's tables as "from to|from to|..." strings) ship without types.
declare module 'opencc-js/dict/*' {
  const dict: string;
  export default dict;
}
